import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/db/database.js";
import { createAllowList } from "../src/services/referrals/allow-list.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { INDEXER_MAX_LIMIT } from "../src/services/indexer/client.js";
import { FakeIndexer, serveFakeIndexer } from "./helpers/fake-indexer.js";

// The operator's commands as the operator runs them (pnpm swap-volumes / polls / allow-list), each a process of its
// own on a database of this test: a PGlite folder, or in the "postgres" project a fresh PostgreSQL database.
const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const run = promisify(execFile);
const work = mkdtempSync(path.join(tmpdir(), "oro-api-commands-"));
let env: Record<string, string>;
let server: TestDatabase | undefined;

beforeAll(async () => {
  const base = { ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent" } as Record<string, string>;
  if (process.env.ORO_TEST_DATABASE === "postgres") {
    server = await createTestDatabase();
    env = { ...base, DATABASE_URL: server.url ?? "" };
  } else {
    env = { ...base, DATABASE_URL: "", PGLITE_DATA_DIR: path.join(work, "pglite") };
  }
});
afterAll(async () => {
  await server?.drop();
  rmSync(work, { recursive: true, force: true });
});

async function commandWith(extraEnv: Record<string, string>, script: string, ...args: string[]) {
  const options = { cwd: apiRoot, env: { ...env, ...extraEnv }, timeout: 240_000 };
  try {
    const { stdout, stderr } = await run(path.join(apiRoot, "node_modules", ".bin", "tsx"), [`scripts/${script}.ts`, ...args], options);
    return { code: 0, out: stdout, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}`, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const command = (script: string, ...args: string[]) => commandWith({}, script, ...args);

async function withDatabase<T>(read: (database: Database) => Promise<T>): Promise<T> {
  const database = server ? server.database : await openDatabase({ kind: "pglite", dataDir: env.PGLITE_DATA_DIR ?? "" });
  try {
    return await read(database);
  } finally {
    if (!server) await database.close();
  }
}

// Each command is a tsx process of its own (a few seconds alone, much longer on a loaded 2-core machine):
// the suites wait for the commands to exit, with room to spare.
describe("pnpm swap-volumes", { timeout: 600_000 }, () => {
  it("imports a CSV file once, marks a reward claimed, and refuses a bad file whole", async () => {
    const address = "0x00000000000000000000000000000000000000c5";
    const csv = path.join(work, "swaps.csv");
    writeFileSync(csv, `id,address,volume_usd,swapped_at\nr1,${address},2.5,2025-05-01T00:00:00Z\nr2,${address},2.5,\n`);
    expect(await command("swap-volumes", "import", csv)).toMatchObject({ code: 0, out: expect.stringContaining("2 swap records imported, 0 already there") as string });
    expect((await command("swap-volumes", "import", csv)).out).toContain("0 swap records imported, 2 already there");
    expect((await command("swap-volumes", "show", address)).out).toContain(`${address}\tEligible\t5 USD`);
    expect((await command("swap-volumes", "claimed", address, "batch", "7")).out).toContain("Claimed");

    const bad = path.join(work, "bad.json");
    writeFileSync(bad, JSON.stringify([{ id: "r3", address, volumeUsd: "1" }, { id: "r4", address: "0x1", volumeUsd: "1" }]));
    const refused = await command("swap-volumes", "import", bad);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/nothing imported:\s+record 2: address/);
    expect(await withDatabase((database) => database.prisma.partnerSwap.count())).toBe(2);
    expect(await withDatabase((database) => database.prisma.swapRewardClaim.findUnique({ where: { address } }))).toMatchObject({ note: "batch 7" });
  });
});

describe("pnpm polls", { timeout: 600_000 }, () => {
  it("creates a poll from a JSON file, lists it and closes it", async () => {
    const file = path.join(work, "poll.json");
    writeFileSync(file, JSON.stringify({ question: { en: "Next feature?", pt: "Próximo recurso?" }, options: [{ en: "Stats" }, { en: "Games" }] }));
    const created = await command("polls", "create", file);
    expect(created.code).toBe(0);
    const id = /created poll ([0-9a-f-]{36}) with 2 options/.exec(created.out)?.[1];
    expect(id).toBeDefined();
    expect((await command("polls", "list")).out).toMatch(new RegExp(`${id ?? ""}\\topen\\t0 votes\\tNext feature\\?`));
    expect((await command("polls", "close", id ?? "")).out).toContain(`closed poll ${id ?? ""}`);
    expect((await command("polls", "list")).out).toContain(`${id ?? ""}\tclosed`);

    writeFileSync(file, JSON.stringify({ question: { en: "One option only" }, options: [{ en: "a" }] }));
    const refused = await command("polls", "create", file);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain("invalid poll");
  });
});

describe("pnpm allow-list", { timeout: 600_000 }, () => {
  // The indexer the command asks (INDEXER_URL): the fake indexer's mints served over HTTP.
  const indexer = new FakeIndexer();
  let served: Awaited<ReturnType<typeof serveFakeIndexer>>;
  beforeAll(async () => {
    served = await serveFakeIndexer(indexer);
  });
  afterAll(async () => {
    await served.close();
  });
  const allowList = (...args: string[]) => commandWith({ INDEXER_URL: served.url }, "allow-list", ...args);
  const wallet = () => privateKeyToAddress(generatePrivateKey());
  const day = 86_400;
  const now = Math.floor(Date.now() / 1000);

  it("records the human behind the wallet (its first minter, not a later one), an address-only entry otherwise, and a human named directly", async () => {
    const [shared, fresh, unreachable] = [wallet(), wallet(), wallet()];
    const [first, second, named] = [toHex(70_001n, { size: 32 }), toHex(70_002n, { size: 32 }), toHex(70_003n, { size: 32 })];
    indexer.mint(shared, first, now - 2 * day);
    // More of the second human's mints than one page of the indexer holds: the first is still found.
    for (let i = 0; i <= INDEXER_MAX_LIMIT; i++) indexer.mint(shared, second, now - day + i);

    const added = await allowList("add", shared, "support", "case");
    expect(added.code).toBe(0);
    // The second human minted to this wallet too, but it is not theirs: they get no exemption from it.
    expect(added.stdout).toBe(`allow-listed human ${first} (support case), the human behind ${shared.toLowerCase()}\n`);

    const addressOnly = await allowList("add", fresh.toLowerCase());
    expect(addressOnly.code).toBe(0);
    expect(addressOnly.stdout.trim().split("\n")).toEqual([
      `allow-listed ${fresh.toLowerCase()} as an address-only entry: no human has minted to this wallet yet (it is eligible anyway); the first human the API finds behind it gets the exemption`,
    ]);

    const down = await commandWith({ INDEXER_URL: "http://127.0.0.1:9" }, "allow-list", "add", unreachable, "indexer", "down");
    expect(down.code).toBe(0);
    expect(down.stdout.trim().split("\n")).toHaveLength(1);
    expect(down.stdout).toContain(`allow-listed ${unreachable.toLowerCase()} (indexer down) as an address-only entry: the indexer (http://127.0.0.1:9) did not answer`);

    // A human by nullifier hash, here in decimal: kept in the same form as the referrals keep it.
    const byHuman = await allowList("add", "--human", BigInt(named).toString(), "vip");
    expect(byHuman).toMatchObject({ code: 0, stdout: `allow-listed human ${named} (vip)\n` });

    const listed = (await allowList("list")).stdout.trim().split("\n");
    expect(listed[0]).toBe("human\twallet\tcreated at\tnote");
    const rows = listed.slice(1).map((line) => line.split("\t"));
    expect(rows.map(([human, address, , note]) => [human, address, note])).toEqual(
      expect.arrayContaining([
        [first, shared.toLowerCase(), "support case"],
        ["(address-only)", fresh.toLowerCase(), ""],
        ["(address-only)", unreachable.toLowerCase(), "indexer down"],
        [named, "-", "vip"],
      ]),
    );
    for (const row of rows) expect(row[2]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(rows.map(([human]) => human)).not.toContain(second);
    expect(await withDatabase((database) => database.prisma.referralAllowList.count())).toBe(4);

    expect((await allowList("remove", shared)).stdout).toBe(`removed 1 entry of ${shared}\n`);
    expect((await allowList("remove", named)).stdout).toBe(`removed 1 entry of ${named}\n`);
    expect((await allowList("remove", named)).stdout).toBe(`${named} was not on the allow-list\n`);
    const left = await withDatabase((database) => database.prisma.referralAllowList.findMany({ orderBy: { address: "asc" } }));
    expect(left.map((entry) => [entry.nullifierHash, entry.address]).sort()).toEqual(
      [[null, fresh.toLowerCase()], [null, unreachable.toLowerCase()]].sort(),
    );

    // Once a human has minted to the wallet, adding it again makes its address-only entry that human's.
    const later = toHex(70_004n, { size: 32 });
    indexer.mint(unreachable, later, now);
    expect((await allowList("add", unreachable)).stdout).toBe(`allow-listed human ${later} (indexer down), the human behind ${unreachable.toLowerCase()}\n`);
    const bound = await withDatabase((database) => database.prisma.referralAllowList.findMany({ where: { address: unreachable.toLowerCase() } }));
    expect(bound).toEqual([expect.objectContaining({ nullifierHash: later, note: "indexer down", boundAt: expect.any(Date) as Date })]);
  });

  it("lists more entries than a page holds, each once, oldest first and by id among entries of the same millisecond", async () => {
    // Entries 7 to a creation time, their ids in another order: the pages (1,000 entries, and 5 below) end inside a group.
    const count = 2_345;
    const entries = Array.from({ length: count }, (_, i) => ({
      id: `entry-${String((i * 7_919) % count).padStart(5, "0")}`,
      nullifierHash: toHex(80_000n + BigInt(i), { size: 32 }),
      note: `note ${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 7) * 1_000),
    }));
    const expected = [...entries]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map((entry) => `${entry.nullifierHash}\t-\t${entry.createdAt.toISOString()}\t${entry.note}`);
    await withDatabase(async (database) => {
      await database.prisma.referralAllowList.deleteMany();
      await database.prisma.referralAllowList.createMany({ data: entries });
    });

    const listed = await allowList("list");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(["human\twallet\tcreated at\tnote", ...expected, ""].join("\n"));

    const paged = await withDatabase(async (database) => {
      const lines = [];
      for await (const entry of createAllowList(database.prisma).entries(5)) lines.push(`${entry.nullifierHash ?? ""}\t-\t${entry.createdAt.toISOString()}\t${entry.note ?? ""}`);
      return lines;
    });
    expect(paged).toEqual(expected);
  });

  it("refuses bad input with one line on stderr and exit code 2, before touching anything", async () => {
    const cases = [
      [["add", "0x12"], /"0x12" is not a wallet address/],
      [["add", "--human", "0x1234"], /"0x1234" is not a nullifier hash/],
      [["add", "--human"], /add --human needs a nullifier hash/],
      [["remove", "banana"], /"banana" is neither a wallet address .* nor a nullifier hash/],
      [["frobnicate", "0x12"], /"frobnicate 0x12" is not an allow-list command; usage: allow-list add/],
      [[], /^usage: allow-list add/],
    ] as const;
    for (const [args, message] of cases) {
      const refused = await allowList(...args);
      expect(refused.code, args.join(" ")).toBe(2);
      expect(refused.stdout).toBe("");
      const lines = refused.stderr.trim().split("\n");
      expect(lines, args.join(" ")).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    }
  });
});

describe("pnpm rehearsal-payouts", { timeout: 600_000 }, () => {
  it("refuses to queue payouts anywhere but a rehearsal, with one line and exit code 2, before touching anything", async () => {
    const refused = await command("rehearsal-payouts", "queue", "3");
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim()).toBe("rehearsal-payouts runs only in a rehearsal (ORO_REHEARSAL=true on the development chain)");
  });
});
