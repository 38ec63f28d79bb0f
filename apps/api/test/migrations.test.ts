import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMigrations } from "../src/db/migrate.js";
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
