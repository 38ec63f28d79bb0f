import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSwapRecords, markSwapRewardClaimed, parseSwapRecords, SwapImportError } from "../src/services/swap-reward/swap-volumes.js";
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
  it("reads JSON (array or { records }) and CSV, and imports a record id once", async () => {
    const address = "0x00000000000000000000000000000000000000b1";
    const json = parseSwapRecords(JSON.stringify([{ id: 1, address: address.toUpperCase().replace("0X", "0x"), volumeUsd: 2.5, swappedAt: "2025-05-01T10:00:00Z" }]), "json");
    expect(json).toEqual([{ id: "1", address, volumeUsd: "2.5", swappedAt: new Date("2025-05-01T10:00:00Z") }]);
    const wrapped = parseSwapRecords(JSON.stringify({ records: [{ id: "x", address, volume_usd: "1" }] }), "json");
    expect(wrapped[0]).toMatchObject({ id: "x", volumeUsd: "1", swappedAt: null });
    const csv = parseSwapRecords(`id,address,volume_usd,swapped_at\r\nimp-1,${address},4.000001,\nimp-2,${address},0.5,2025-05-02T00:00:00Z\n`, "csv");
    expect(csv.map((record) => [record.id, record.volumeUsd])).toEqual([["imp-1", "4.000001"], ["imp-2", "0.5"]]);

    expect(await importSwapRecords(prisma(), csv)).toEqual({ imported: 2, skipped: 0 });
    expect(await importSwapRecords(prisma(), csv)).toEqual({ imported: 0, skipped: 2 });
    const total = await prisma().partnerSwap.aggregate({ where: { address }, _sum: { volumeUsd: true } });
    expect(total._sum.volumeUsd?.toFixed(6)).toBe("4.500001");
  });

  it("lists every bad record and imports none of them", () => {
    let error: unknown;
    try {
      parseSwapRecords(JSON.stringify([{ id: "ok", address: someone, volumeUsd: "1" }, { id: "", address: "0x12", volumeUsd: "-3" }, { address: someone, volumeUsd: "1.1234567" }]), "json");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SwapImportError);
    const message = (error as Error).message;
    expect(message).toMatch(/record 2: .*id.*address.*volumeUsd/s);
    expect(message).toMatch(/record 3: .*id/);
    expect(message).not.toMatch(/record 1/);
    expect(() => parseSwapRecords("{", "json")).toThrow(/not JSON/);
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
