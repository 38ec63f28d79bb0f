import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingMigrations, readMigrations, waitForMigrations } from "../src/db/migrate.js";
import { createAllowList } from "../src/services/referrals/allow-list.js";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "./helpers/database.js";

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe("the migration runner", () => {
  it("runs on the database the environment asks for (PostgreSQL when DATABASE_URL is set)", () => {
    expect(db.database.kind).toBe(testDatabaseKind());
  });

  it("recorded every migration in _prisma_migrations like prisma migrate deploy does", async () => {
    const migrations = await readMigrations();
    const rows = await db.database.prisma.$queryRaw<
      { migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }[]
    >`SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`;
    expect(rows.map((row) => row.migration_name)).toEqual(migrations.map((migration) => migration.name));
    for (const [index, row] of rows.entries()) {
      expect(row.checksum).toBe(migrations[index]?.checksum);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it("applies nothing twice", async () => {
    const result = await db.database.migrate();
    expect(result.applied).toEqual([]);
    expect(result.alreadyApplied.length).toBeGreaterThan(0);
  });

  it("refuses a migration that was changed after it was applied", async () => {
    const [first, ...rest] = await readMigrations();
    if (!first) throw new Error("no migrations");
    await expect(db.database.migrate([{ ...first, checksum: "0".repeat(64) }, ...rest])).rejects.toThrow(/changed after it was applied/);
  });

  it("applies a new migration in a transaction and rolls a failing one back", async () => {
    const existing = await readMigrations();
    const good = { name: "29990101000000_test_table", sql: 'CREATE TABLE "migration_probe" ("id" INT);', checksum: "a".repeat(64) };
    expect((await db.database.migrate([...existing, good])).applied).toEqual([good.name]);
    const bad = { name: "29990102000000_broken", sql: 'CREATE TABLE "half_done" ("id" INT); SELECT * FROM "no_such_table";', checksum: "b".repeat(64) };
    await expect(db.database.migrate([...existing, good, bad])).rejects.toThrow(/29990102000000_broken failed/);
    const leftovers = await db.database.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*)::bigint AS n FROM information_schema.tables WHERE table_name = 'half_done'`;
    expect(Number(leftovers[0]?.n)).toBe(0);
    const recorded = await db.database.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*)::bigint AS n FROM "_prisma_migrations" WHERE migration_name = '29990102000000_broken'`;
    expect(Number(recorded[0]?.n)).toBe(0);
  });

  it("tells a replica that waits for the release step what is not applied yet, and lets it go once it is", async () => {
    const query = <Row>(sql: string) => db.database.prisma.$queryRawUnsafe<Row[]>(sql);
    const existing = await readMigrations();
    expect(await pendingMigrations(query)).toEqual([]);
    const next = { name: "29990103000000_release_step", sql: 'CREATE TABLE "release_probe" ("id" INT);', checksum: "c".repeat(64) };
    expect(await pendingMigrations(query, [...existing, next])).toEqual([next.name]);

    const told: string[][] = [];
    const waiting = waitForMigrations(query, { waitMs: 10_000, pollMs: 50, migrations: [...existing, next], onWait: (pending) => told.push(pending) });
    let done = false;
    void waiting.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(done).toBe(false);
    expect(told).toEqual([[next.name]]);
    await db.database.migrate([...existing, next]);
    await waiting;

    const later = { ...next, name: "29990104000000_never_applied" };
    await expect(waitForMigrations(query, { waitMs: 100, pollMs: 20, migrations: [...existing, next, later] }))
      .rejects.toThrow("waited 0 s for the release step's migrations: not applied: 29990104000000_never_applied");
  });

  it("enforces in the database what no code path may break", async () => {
    const { prisma } = db.database;
    const [a, b] = await Promise.all([
      prisma.user.create({ data: { address: "0x00000000000000000000000000000000000000a1" } }),
      prisma.user.create({ data: { address: "0x00000000000000000000000000000000000000b1" } }),
    ]);
    await expect(prisma.referralCode.create({ data: { userId: a.id, app: "oro", code: "ABCDEFG0" } })).rejects.toThrow();
    await expect(prisma.referralCode.create({ data: { userId: a.id, app: "oro", code: "abcdefgh" } })).rejects.toThrow();
    const code = await prisma.referralCode.create({ data: { userId: a.id, app: "oro", code: "ABCDEFGH" } });
    await expect(prisma.referral.create({ data: { referrerId: a.id, refereeId: a.id, referralCodeId: code.id } })).rejects.toThrow();
    await prisma.referral.create({ data: { referrerId: a.id, refereeId: b.id, referralCodeId: code.id } });
    await expect(prisma.referral.create({ data: { referrerId: a.id, refereeId: b.id, referralCodeId: code.id } })).rejects.toMatchObject({
      code: "P2002",
    });
  });
});

describe("migration 20261228000000_streak_cache_unlogged", () => {
  // Each uncached streak read writes the shared cache: as a logged table every such read waited for the WAL to reach
  // the disk. Only the cache may skip the WAL: everything else must survive a crash of PostgreSQL.
  it("leaves only the shared streak cache unlogged", async () => {
    const rows = await db.database.prisma.$queryRaw<{ relname: string; relpersistence: string }[]>`
      SELECT c.relname, c.relpersistence::text AS relpersistence FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r'`;
    const unlogged = rows.filter((row) => row.relpersistence === "u").map((row) => row.relname);
    expect(unlogged).toEqual(["streak_cache"]);
    expect(rows.find((row) => row.relname === "referral_reward")?.relpersistence).toBe("p");
  });
});

/** A database migrated up to the migration `name`, not including it, for the tests of the enclosing block. */
function databaseBefore(name: string): () => TestDatabase {
  let before: TestDatabase | undefined;
  beforeAll(async () => {
    const migrations = await readMigrations();
    before = await createTestDatabase(migrations.slice(0, migrations.findIndex((migration) => migration.name === name)));
  });
  afterAll(async () => {
    await before?.drop();
  });
  return () => {
    if (!before) throw new Error(`no database before ${name}`);
    return before;
  };
}

describe("migration 20261222000000_allow_list_per_human", () => {
  const name = "20261222000000_allow_list_per_human";
  const [listed, other] = ["0x00000000000000000000000000000000000000c1", "0x00000000000000000000000000000000000000c2"];
  const human = `0x${"ab".repeat(32)}` as const;
  const before = databaseBefore(name);

  it("keeps every allow-listed wallet, as an address-only entry the API binds to the wallet's human", async () => {
    const { prisma } = before().database;
    await prisma.$executeRaw`INSERT INTO "referral_allow_list" ("address", "note", "created_at")
      VALUES (${listed}, 'early supporter', '2026-01-02T03:04:05Z'), (${other}, NULL, '2026-01-03T00:00:00Z')`;
    expect((await before().database.migrate()).applied).toContain(name);

    const rows = await prisma.referralAllowList.findMany({ orderBy: { address: "asc" } });
    expect(rows).toEqual([
      { id: expect.any(String) as string, nullifierHash: null, address: listed, note: "early supporter", boundAt: null, createdAt: new Date("2026-01-02T03:04:05Z") },
      { id: expect.any(String) as string, nullifierHash: null, address: other, note: null, boundAt: null, createdAt: new Date("2026-01-03T00:00:00Z") },
    ]);
    const allowList = createAllowList(prisma);
    expect(await allowList.exempts(listed, null)).toBe(true);
    expect(await allowList.exempts(listed, human)).toBe(true);
    expect(await prisma.referralAllowList.findUnique({ where: { nullifierHash: human } })).toMatchObject({ address: listed, note: "early supporter" });
    expect(await allowList.exempts(listed, `0x${"cd".repeat(32)}`)).toBe(false);
  });

  it("holds one entry per human and one address-only entry per wallet", async () => {
    const { prisma } = before().database;
    await expect(prisma.referralAllowList.create({ data: { nullifierHash: human, address: other } })).rejects.toMatchObject({ code: "P2002" });
    await expect(prisma.referralAllowList.create({ data: { address: other } })).rejects.toMatchObject({ code: "P2002" });
    // Several humans may have minted to one wallet: each has an entry naming it.
    await prisma.referralAllowList.create({ data: { nullifierHash: `0x${"01".repeat(32)}`, address: other } });
    await prisma.referralAllowList.create({ data: { nullifierHash: `0x${"02".repeat(32)}`, address: other } });
    // A human in another form than the referrals keep it, or an entry naming nobody, is refused.
    await expect(prisma.referralAllowList.create({ data: { nullifierHash: `0x${"AB".repeat(32)}` } })).rejects.toThrow();
    await expect(prisma.referralAllowList.create({ data: { nullifierHash: "12345" } })).rejects.toThrow();
    await expect(prisma.referralAllowList.create({ data: {} })).rejects.toThrow();
  });
});

describe("migration 20261230000002_poll_vote_totals", () => {
  const name = "20261230000002_poll_vote_totals";
  const before = databaseBefore(name);

  it("counts the votes cast before it into each option's total, and counts the votes cast after", async () => {
    const { prisma } = before().database;
    const voter = await prisma.user.create({ data: { address: "0x00000000000000000000000000000000000000d1" } });
    const poll = await prisma.poll.create({ data: { question: { en: "Q" }, options: { create: [0, 1, 2].map((position) => ({ position, label: { en: `${position}` } })) } }, include: { options: true } });
    const [first, second, third] = poll.options.sort((a, b) => a.position - b.position);
    if (!first || !second || !third) throw new Error("three options");
    const votes = (option: typeof first, humans: string[]) => humans.map((human) => ({ pollId: poll.id, optionId: option.id, nullifierHash: human, userId: voter.id }));
    await prisma.pollVote.createMany({ data: [...votes(first, ["0x1", "0x2", "0x3"]), ...votes(second, ["0x4"])] });
    expect((await before().database.migrate()).applied).toContain(name);

    const totals = async () => Object.fromEntries((await prisma.pollVoteTotals.findMany()).map((row) => [row.optionId, row.votes]));
    expect(await totals()).toEqual({ [first.id]: 3, [second.id]: 1 });
    await prisma.pollVote.createMany({ data: votes(third, ["0x5"]) });
    await prisma.pollVote.update({ where: { pollId_nullifierHash: { pollId: poll.id, nullifierHash: "0x1" } }, data: { optionId: second.id } });
    expect(await totals()).toEqual({ [first.id]: 2, [second.id]: 2, [third.id]: 1 });
  });
});
