import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/db/database.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";

// The operator's commands as the operator runs them (pnpm swap-volumes / pnpm polls), each a process of its
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

async function command(script: string, ...args: string[]) {
  try {
    const { stdout } = await run(path.join(apiRoot, "node_modules", ".bin", "tsx"), [`scripts/${script}.ts`, ...args], { cwd: apiRoot, env, timeout: 240_000 });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
}

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
