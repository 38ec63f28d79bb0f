import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hotStatement } from "../src/db/database.js";
import { createTestDatabase, type TestDatabase } from "./helpers/database.js";

// Hot statements run on pg (a named prepared statement) in production and on PGlite in development: both must read
// the same values from the same SQL, and a name must never carry two texts.
describe("hot statements", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  const CASTS = hotStatement<[at: string, amount: string], { ms: number; amount: string; count: number; body: unknown; flag: boolean }>(
    "test_hot_casts",
    `SELECT round(extract(epoch FROM $1::timestamp(3)) * 1000)::float8 AS "ms", ($2::numeric * 2)::text AS "amount",
            2::int4 AS "count", json_build_object('a', 1, 'b', json_build_array('x', null)) AS "body", true AS "flag"`,
  );

  it("reads times as epoch milliseconds, numerics as text and JSON as values, the same run after run", async () => {
    const values: [string, string] = ["2026-11-25T01:02:03.456Z", "123456789012345678901234567890"];
    const expected = [{ ms: Date.UTC(2026, 10, 25, 1, 2, 3, 456), amount: "246913578024691357802469135780", count: 2, body: { a: 1, b: ["x", null] }, flag: true }];
    // Twice: on PostgreSQL the second run reuses the idle connection, and the statement it prepared.
    expect(await db.database.run(CASTS, values)).toEqual(expected);
    expect(await db.database.run(CASTS, values)).toEqual(expected);
  });

  it("refuses a second text under a name already used", () => {
    expect(() => hotStatement("test_hot_casts", "SELECT 1")).toThrow(/already defined with another text/);
    expect(hotStatement("test_hot_casts", CASTS.text)).toEqual(CASTS);
  });
});
