import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/db/database.js";
import { voucherNonceLoader } from "../src/services/payouts/vouchers.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";

const EPOCH_KEY = "voucher_nonce_epoch";

let db: TestDatabase;
/** A second process's connections to the same database (PostgreSQL); on PGlite, the one database again. */
let other: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  other = db.url ? await openDatabase({ kind: "postgres", url: db.url }) : db.database;
});
afterAll(async () => {
  if (other !== db.database) await other.close();
  await db.drop();
});

const storedEpoch = async () => (await db.database.prisma.setting.findUnique({ where: { key: EPOCH_KEY } }))?.value;

describe("voucher nonces", () => {
  it("replicas starting at once on a new database all read one epoch, none failing on the key another wrote", async () => {
    for (let round = 0; round < 5; round++) {
      await db.database.prisma.setting.deleteMany({ where: { key: EPOCH_KEY } });
      // Each loader is one replica's first start: eight of them, over two sets of connections.
      const starts = Array.from({ length: 8 }, (_, i) => voucherNonceLoader((i % 2 === 0 ? db.database : other).prisma)());
      const outcomes = await Promise.allSettled(starts);
      const failures = outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => String(outcome.reason));
      expect(failures, `round ${round}`).toEqual([]);
      const epochs = new Set(outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value.epoch : undefined)));
      expect(epochs.size, `round ${round}`).toBe(1);
      expect(String([...epochs][0])).toBe(await storedEpoch());
    }
  });

  it("keeps the epoch a process read: nonces are epoch * 2^64 + the sequence, and the row is read once", async () => {
    await db.database.prisma.setting.deleteMany({ where: { key: EPOCH_KEY } });
    const load = voucherNonceLoader(db.database.prisma);
    const nonces = await load();
    expect(String(nonces.epoch)).toBe(await storedEpoch());
    const first = await nonces.allocate(db.database.prisma);
    const second = await nonces.allocate(db.database.prisma);
    expect(first >> 64n).toBe(nonces.epoch);
    expect(second).toBe(first + 1n);
    // The process asks no more: the loader gives the epoch it read, whatever the row says now.
    await db.database.prisma.setting.update({ where: { key: EPOCH_KEY }, data: { value: "7" } });
    expect((await load()).epoch).toBe(nonces.epoch);
    // Inside a transaction, a nonce is drawn with no further read of the epoch.
    const inTransaction = await db.database.prisma.$transaction((tx) => nonces.allocate(tx));
    expect(inTransaction >> 64n).toBe(nonces.epoch);
    // A new process reads what is stored.
    expect((await voucherNonceLoader(db.database.prisma)()).epoch).toBe(7n);
  });
});
