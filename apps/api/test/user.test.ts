import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  importSwapFile,
  importSwapRecords,
  markSwapRewardClaimed,
  readSwapFile,
  type SwapFileFormat,
  type SwapRecord,
} from "../src/services/swap-reward/swap-volumes.js";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser, type TestUser } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ indexer: new FakeIndexer(), env: { COUNTRY_HEADER: "CF-IPCountry", RATE_LIMIT_PER_ADDRESS: "1000" } });
});
afterAll(async () => {
  await t.close();
});

const prisma = () => t.db.database.prisma;
const someone = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

function get(url: string, user?: TestUser, headers: Record<string, string> = {}) {
  return t.app.inject({ method: "GET", url, headers: { ...headers, ...(user ? bearer(user.token) : {}) } });
}

describe("GET /api/user/is-in-us", () => {
  it("reads the trusted proxy's country header", async () => {
    const url = `/api/user/is-in-us?userAddress=${someone}`;
    expect((await get(url, undefined, { "cf-ipcountry": "US" })).json()).toEqual({ isInUS: true });
    expect((await get(url, undefined, { "cf-ipcountry": "us" })).json()).toEqual({ isInUS: true });
    expect((await get(url, undefined, { "cf-ipcountry": "DE" })).json()).toEqual({ isInUS: false });
    expect((await get(url)).json()).toEqual({ isInUS: false });
    // Another header the client could set itself counts for nothing.
    expect((await get(url, undefined, { "x-country": "US" })).json()).toEqual({ isInUS: false });
  });

  it("is false for everyone when no header is configured", async () => {
    const plain = await createTestApp({ testDatabase: t.db });
    try {
      const response = await plain.app.inject({ method: "GET", url: `/api/user/is-in-us?userAddress=${someone}`, headers: { "cf-ipcountry": "US" } });
      expect(response.json()).toEqual({ isInUS: false });
    } finally {
      await plain.close();
    }
  });

  it("answers 400 for a bad address", async () => {
    const response = await get("/api/user/is-in-us?userAddress=nope");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ issues: [{ field: "querystring.userAddress", rule: "invalid_format" }] });
  });
});

describe("GET /api/user/uno_rewards", () => {
  it("is Ineligible below 5 USD of partner swaps, Eligible from 5, Claimed once marked", async () => {
    const user = await newUser(t.app);
    const url = `/api/user/uno_rewards?userAddress=${user.address}`;
    expect((await get(url, user)).json()).toEqual({ rewardStatus: "Ineligible", totalSwapVolumeUsd: 0, minSwapVolumeUsd: 5 });

    await importSwapRecords(prisma(), [
      { id: `a-${user.address}`, address: user.address, volumeUsd: "3.5", swappedAt: null },
      { id: `b-${user.address}`, address: user.address, volumeUsd: "1.49", swappedAt: null },
    ]);
    expect((await get(url, user)).json()).toEqual({ rewardStatus: "Ineligible", totalSwapVolumeUsd: 4.99, minSwapVolumeUsd: 5 });

    await importSwapRecords(prisma(), [{ id: `c-${user.address}`, address: user.address, volumeUsd: "0.01", swappedAt: null }]);
    expect((await get(url, user)).json()).toEqual({ rewardStatus: "Eligible", totalSwapVolumeUsd: 5, minSwapVolumeUsd: 5 });

    expect(await markSwapRewardClaimed(prisma(), user.address, "paid in batch 1")).toBe(true);
    expect(await markSwapRewardClaimed(prisma(), user.address)).toBe(false);
    expect((await get(url, user)).json()).toEqual({ rewardStatus: "Claimed", totalSwapVolumeUsd: 5, minSwapVolumeUsd: 5 });
  });

  it("serves the minimum from the API's setting and decides Eligible by it", async () => {
    const other = await createTestApp({ testDatabase: t.db, indexer: new FakeIndexer(), env: { SWAP_REWARD_MIN_VOLUME_USD: "20", RATE_LIMIT_PER_ADDRESS: "1000" } });
    try {
      const user = await newUser(other.app);
      await importSwapRecords(prisma(), [{ id: `d-${user.address}`, address: user.address, volumeUsd: "12", swappedAt: null }]);
      const response = await other.app.inject({ method: "GET", url: `/api/user/uno_rewards?userAddress=${user.address}`, headers: bearer(user.token) });
      expect(response.json()).toEqual({ rewardStatus: "Ineligible", totalSwapVolumeUsd: 12, minSwapVolumeUsd: 20 });
    } finally {
      await other.close();
    }
  });

  it("needs the user's own session", async () => {
    const user = await newUser(t.app);
    const other = await newUser(t.app);
    const url = `/api/user/uno_rewards?userAddress=${user.address}`;
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, other)).statusCode).toBe(403);
  });
});

describe("GET /api/user/uno_rewards/terms", () => {
  it("tells anyone, signed in or not, the swap volume that earns the reward (the API's setting)", async () => {
    expect((await get("/api/user/uno_rewards/terms")).json()).toEqual({ minSwapVolumeUsd: 5 });
    const other = await createTestApp({ testDatabase: t.db, indexer: new FakeIndexer(), env: { SWAP_REWARD_MIN_VOLUME_USD: "20" } });
    try {
      const response = await other.app.inject({ method: "GET", url: "/api/user/uno_rewards/terms" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ minSwapVolumeUsd: 20 });
    } finally {
      await other.close();
    }
  });
});

describe("the swap record importer", () => {
  /** A partner file with this text, opened as the importer opens one: a stream. */
  const file = (text: string) => () => Readable.from([text]);
  async function recordsOf(text: string, format: SwapFileFormat): Promise<SwapRecord[]> {
    const records = [];
    for await (const row of readSwapFile(file(text)(), format)) if ("record" in row) records.push(row.record);
    return records;
  }
  /** Imports the text; the problems it reports, and its answer. */
  async function importText(text: string, format: SwapFileFormat) {
    const problems: string[] = [];
    const done = await importSwapFile(prisma(), file(text), format, (problem) => problems.push(problem));
    return { problems, done };
  }

  it("reads JSON (array or { records }) and CSV, and imports a record id once", async () => {
    const address = "0x00000000000000000000000000000000000000b1";
    const json = await recordsOf(JSON.stringify([{ id: 1, address: address.toUpperCase().replace("0X", "0x"), volumeUsd: 2.5, swappedAt: "2025-05-01T10:00:00Z" }]), "json");
    expect(json).toEqual([{ id: "1", address, volumeUsd: "2.5", swappedAt: new Date("2025-05-01T10:00:00Z") }]);
    const wrapped = await recordsOf(JSON.stringify({ source: { name: "partner", ids: [1, 2] }, records: [{ id: "x", address, volume_usd: "1" }] }), "json");
    expect(wrapped).toEqual([{ id: "x", address, volumeUsd: "1", swappedAt: null }]);
    const csv = `id,address,volume_usd,swapped_at\r\nimp-1,${address},4.000001,\n\nimp-2,${address},0.5,2025-05-02T00:00:00Z\n`;
    expect((await recordsOf(csv, "csv")).map((record) => [record.id, record.volumeUsd])).toEqual([["imp-1", "4.000001"], ["imp-2", "0.5"]]);

    expect(await importText(csv, "csv")).toEqual({ problems: [], done: { records: 2, imported: 2, skipped: 0 } });
    expect(await importText(csv, "csv")).toEqual({ problems: [], done: { records: 2, imported: 0, skipped: 2 } });
    const total = await prisma().partnerSwap.aggregate({ where: { address }, _sum: { volumeUsd: true } });
    expect(total._sum.volumeUsd?.toFixed(6)).toBe("4.500001");
    expect(await importText(JSON.stringify({ records: [] }), "json")).toEqual({ problems: [], done: { records: 0, imported: 0, skipped: 0 } });
  });

  it("lists every bad record and imports none of them", async () => {
    const bad = JSON.stringify([{ id: "listed-ok", address: someone, volumeUsd: "1" }, { id: "", address: "0x12", volumeUsd: "-3" }, { address: someone, volumeUsd: "1.1234567" }]);
    const { problems, done } = await importText(bad, "json");
    expect(done).toBeUndefined();
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^record 2: .*id.*address.*volumeUsd/s);
    expect(problems[1]).toMatch(/^record 3: .*id/);
    expect(await prisma().partnerSwap.count({ where: { id: "listed-ok" } })).toBe(0);

    for (const [text, problem] of [
      ["{", /^not JSON/],
      [`[{ "id": "cut-short", "address": "${someone}", "volumeUsd": "1" }`, /^not JSON/],
      ["", /^not JSON/],
      ["{}", /^expected an array of records$/],
      ['{ "records": 5 }', /^expected an array of records$/],
      ['"records"', /^expected an array of records$/],
    ] as const) {
      expect(await importText(text, "json")).toEqual({ problems: [expect.stringMatching(problem) as string], done: undefined });
    }
    expect(await prisma().partnerSwap.count({ where: { id: "cut-short" } })).toBe(0);
  });

  it("holds a batch of a large file, never the file: each batch is written before the reading goes much further", async () => {
    const count = 10_500;
    const address = "0x00000000000000000000000000000000000000b3";
    for (const format of ["csv", "json"] as const) {
      const id = (i: number) => `streamed-${format}-${i}`;
      const written = () => prisma().partnerSwap.count({ where: { id: { startsWith: `streamed-${format}-` } } });
      // How far the reading had gone past what was written, looked at every 500 records of the second reading (the one
      // that writes).
      const aheadOfWrites: number[] = [];
      let readings = 0;
      async function* text(measure: boolean) {
        yield format === "csv" ? "id,address,volume_usd\n" : "[";
        for (let i = 0; i < count; i++) {
          if (measure && i % 500 === 0) aheadOfWrites.push(i - (await written()));
          yield format === "csv" ? `${id(i)},${address},1\n` : `${i === 0 ? "" : ","}{"id":"${id(i)}","address":"${address}","volumeUsd":"1"}`;
        }
        if (format === "json") yield "]";
      }
      const done = await importSwapFile(prisma(), () => Readable.from(text(++readings === 2)), format, (problem) => expect.fail(problem));
      expect(done).toEqual({ records: count, imported: count, skipped: 0 });
      expect(await written()).toBe(count);
      expect(aheadOfWrites).toHaveLength(count / 500);
      // A batch is 1,000 records, and Node's line reader queues up to 1,024 lines: never the file's 10,500.
      expect(Math.max(...aheadOfWrites)).toBeLessThanOrEqual(2_500);
    }
  });
});

describe("POST and GET /api/user/email", () => {
  it("stores one normalised email per user, and tells whether one was given", async () => {
    const user = await newUser(t.app);
    const url = `/api/user/email?userAddress=${user.address}`;
    expect((await get(url, user)).json()).toEqual({ submitted: false, submittedAt: null });

    const first = await t.app.inject({ method: "POST", url, headers: bearer(user.token), payload: { email: "  Ana.Silva@Example.COM " } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ submitted: true });
    const second = await t.app.inject({ method: "POST", url, headers: bearer(user.token), payload: { email: "ana@example.org" } });
    expect(second.statusCode).toBe(200);

    const rows = await prisma().userEmail.findMany({ where: { user: { address: user.address } } });
    expect(rows.map((row) => row.email)).toEqual(["ana@example.org"]);
    const status = (await get(url, user)).json<{ submitted: boolean; submittedAt: string }>();
    expect(status.submitted).toBe(true);
    expect(Date.parse(status.submittedAt)).toBeGreaterThan(0);
  });

  it("refuses an invalid email naming the field, and needs the user's session", async () => {
    const user = await newUser(t.app);
    const other = await newUser(t.app);
    const url = `/api/user/email?userAddress=${user.address}`;
    for (const email of ["not-an-email", "a@b", "", "x".repeat(250) + "@example.com"]) {
      const response = await t.app.inject({ method: "POST", url, headers: bearer(user.token), payload: { email } });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ issues: { field: string }[] }>().issues[0]?.field).toBe("body.email");
    }
    const missing = await t.app.inject({ method: "POST", url, headers: bearer(user.token), payload: {} });
    expect(missing.json()).toMatchObject({ issues: [{ field: "body.email", rule: "invalid_type" }] });
    expect((await t.app.inject({ method: "POST", url, payload: { email: "a@example.com" } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url, headers: bearer(other.token), payload: { email: "a@example.com" } })).statusCode).toBe(403);
    expect((await get(url, other)).statusCode).toBe(403);
    expect(await prisma().userEmail.count({ where: { user: { address: user.address } } })).toBe(0);
  });
});
