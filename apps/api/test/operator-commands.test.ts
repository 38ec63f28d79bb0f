import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
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
import { createPollService } from "../src/services/polls/polls.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";
import { INDEXER_MAX_LIMIT } from "../src/services/indexer/client.js";
import { FakeIndexer, serveFakeIndexer } from "./helpers/fake-indexer.js";
import { transpileApi, type TranspiledApi } from "../scripts/transpiled-api.js";

// The operator's commands (pnpm swap-volumes / polls / allow-list), each a process of its own on a database of this
// test: a PGlite folder, or in the "postgres" project a fresh PostgreSQL database. They run from the API transpiled
// to JavaScript once (as the production image has it): the same sources, without tsx compiling them on each of the
// twenty starts; the last test runs one through its package script (tsx), as the operator types it.
const apiRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const run = promisify(execFile);
const work = mkdtempSync(path.join(tmpdir(), "oro-api-commands-"));
let env: Record<string, string>;
let server: TestDatabase | undefined;
let transpiled: TranspiledApi;

beforeAll(async () => {
  transpiled = await transpileApi();
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
  transpiled?.remove();
});

/** Runs an operator command: node on its transpiled JavaScript, or (`throughTsx`) `tsx scripts/<script>.ts`. */
async function runCommand(how: { extraEnv?: Record<string, string>; throughTsx?: boolean }, script: string, ...args: string[]) {
  const options = { cwd: apiRoot, env: { ...env, ...how.extraEnv }, timeout: 240_000 };
  const [program, programArgs] = how.throughTsx
    ? [path.join(apiRoot, "node_modules", ".bin", "tsx"), [`scripts/${script}.ts`, ...args]]
    : [process.execPath, [transpiled.file(`scripts/${script}.ts`), ...args]];
  try {
    const { stdout, stderr } = await run(program, programArgs, options);
    return { code: 0, out: stdout, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}`, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const commandWith = (extraEnv: Record<string, string>, script: string, ...args: string[]) => runCommand({ extraEnv }, script, ...args);
const command = (script: string, ...args: string[]) => runCommand({}, script, ...args);

async function withDatabase<T>(read: (database: Database) => Promise<T>): Promise<T> {
  const database = server ? server.database : await openDatabase({ kind: "pglite", dataDir: env.PGLITE_DATA_DIR ?? "" });
  try {
    return await read(database);
  } finally {
    if (!server) await database.close();
  }
}

// Each command is a process of its own (a second or two alone, much longer on a loaded 2-core machine): the suites
// wait for the commands to exit, with room to spare.
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

  it("imports a file of several batches, each record once, and names the position of a bad record deep in one", async () => {
    const address = "0x00000000000000000000000000000000000000c6";
    const count = 3_500;
    const csv = path.join(work, "large.csv");
    writeFileSync(csv, ["id,address,volume_usd,swapped_at", ...Array.from({ length: count }, (_, i) => `large-${i},${address},0.01,`), ""].join("\n"));
    // The records there: how many, how many ids, and their volume.
    const landed = () =>
      withDatabase(async (database) => {
        const rows = await database.prisma.partnerSwap.findMany({ where: { id: { startsWith: "large-" } }, select: { id: true, volumeUsd: true } });
        return { rows: rows.length, ids: new Set(rows.map((row) => row.id)).size, volumeUsd: rows.reduce((sum, row) => sum + Number(row.volumeUsd), 0).toFixed(2) };
      });

    const imported = await command("swap-volumes", "import", csv);
    expect(imported).toMatchObject({ code: 0, stdout: `${count} swap records imported, 0 already there (${count} in ${csv})\n` });
    expect(await landed()).toEqual({ rows: count, ids: count, volumeUsd: "35.00" });
    expect((await command("swap-volumes", "import", csv)).stdout).toBe(`0 swap records imported, ${count} already there (${count} in ${csv})\n`);
    expect(await landed()).toEqual({ rows: count, ids: count, volumeUsd: "35.00" });

    const records = Array.from({ length: count }, (_, i) => ({ id: `refused-${i}`, address: i === 2_344 ? "0x12" : address, volumeUsd: i === 3_333 ? "-1" : "0.01" }));
    const bad = path.join(work, "large-bad.json");
    writeFileSync(bad, JSON.stringify({ records }, null, 1));
    const refused = await command("swap-volumes", "import", bad);
    expect(refused).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "nothing imported:\nrecord 2345: address not a 0x address\nrecord 3334: volumeUsd not a non-negative USD amount with at most 6 decimals\n",
    });
    expect(await withDatabase((database) => database.prisma.partnerSwap.count({ where: { id: { startsWith: "refused-" } } }))).toBe(0);
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

  it("lists every poll that has opened, more than a page holds, each once, in the app's order", async () => {
    // 260 polls: open-ended, closing later, closed and not yet open ones, many sharing their closing and opening times
    // so that pages (100 polls, and 7 below) end inside such a group.
    const now = Math.floor(Date.now() / 1000) * 1000;
    const hour = 3_600_000;
    const polls = Array.from({ length: 260 }, (_, i) => {
      const group = 1 + Math.floor(i / 20);
      const closesAt = [null, new Date(now + group * hour), new Date(now + group * hour), new Date(now - group * hour), new Date(now - group * hour)][i % 5] ?? null;
      const opensAt = i % 13 === 0 ? new Date(now + hour) : new Date(now - 100 * hour - Math.floor(i / 7) * hour);
      return { id: randomUUID(), question: { en: `Poll ${i}` }, opensAt, closesAt: i % 13 === 0 ? null : closesAt };
    });
    const options = polls.flatMap((poll) => [0, 1].map((position) => ({ id: randomUUID(), pollId: poll.id, position, label: { en: `${poll.question.en} option ${position}` } })));
    const votesFor = options.filter((_, i) => i % 3 === 0);
    await withDatabase(async (database) => {
      // The commands migrate the database they open; this test may be the first to open it.
      await database.migrate();
      await database.prisma.poll.deleteMany();
      await database.prisma.poll.createMany({ data: polls });
      await database.prisma.pollOption.createMany({ data: options });
      const voter = await database.prisma.user.create({ data: { address: "0x00000000000000000000000000000000000000e1" } });
      await database.prisma.pollVote.createMany({ data: votesFor.map((option, i) => ({ pollId: option.pollId, optionId: option.id, nullifierHash: `0xlisted-${i}`, userId: voter.id })) });
    });

    const closing = (poll: (typeof polls)[number]) => poll.closesAt?.getTime() ?? Number.MAX_SAFE_INTEGER;
    const isOpen = (poll: (typeof polls)[number]) => closing(poll) > now;
    const shown = polls
      .filter((poll) => poll.opensAt.getTime() <= now)
      .sort(
        (a, b) =>
          Number(isOpen(b)) - Number(isOpen(a)) ||
          (isOpen(a) ? closing(a) - closing(b) : closing(b) - closing(a)) ||
          b.opensAt.getTime() - a.opensAt.getTime() ||
          (a.id < b.id ? -1 : 1),
      );
    // More than two pages of the command's (100 polls).
    expect(shown.length).toBeGreaterThan(200);
    const expected = shown.flatMap((poll) => {
        const own = options.filter((option) => option.pollId === poll.id).map((option) => ({ ...option, votes: votesFor.includes(option) ? 1 : 0 }));
        const total = own.reduce((sum, option) => sum + option.votes, 0);
      return [`${poll.id}\t${isOpen(poll) ? "open" : "closed"}\t${total} votes\t${poll.question.en}`, ...own.map((option) => `    ${option.votes}\t${option.label.en}`)];
    });

    const listed = await command("polls", "list");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe([...expected, ""].join("\n"));

    const paged = await withDatabase(async (database) => {
      const lines = [];
      const service = createPollService({ prisma: database.prisma, indexer: new FakeIndexer() });
      for await (const poll of service.everyPoll("en", 7)) {
        lines.push(`${poll.id}\t${poll.status}\t${poll.totalVotes} votes\t${poll.question}`, ...poll.options.map((option) => `    ${option.votes}\t${option.label}`));
      }
      return lines;
    });
    expect(paged).toEqual(expected);
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

describe("the commands from their TypeScript sources", { timeout: 600_000 }, () => {
  it("pnpm polls runs through tsx, as its package script starts it, on the same database", async () => {
    const file = path.join(work, "poll-through-tsx.json");
    writeFileSync(file, JSON.stringify({ question: { en: "Through tsx?" }, options: [{ en: "Yes" }, { en: "No" }] }));
    const created = await runCommand({ throughTsx: true }, "polls", "create", file);
    expect(created.code, created.out).toBe(0);
    const id = /created poll ([0-9a-f-]{36}) with 2 options/.exec(created.out)?.[1];
    expect((await command("polls", "list")).out).toMatch(new RegExp(`${id ?? "no id"}\\topen\\t0 votes\\tThrough tsx\\?`));
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
