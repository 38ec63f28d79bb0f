import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";

describe("GET /api/referrals/programme", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ indexer: new FakeIndexer(), env: { REFERRAL_REFERRER_REWARD: "2.5", REFERRAL_REFEREE_REWARD: "0.5" } });
  });
  afterAll(async () => {
    await t.close();
  });

  it("names the configured rewards in wei, to anyone (the share screen shows them signed out too)", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/referrals/programme" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ referrerRewardWei: "2500000000000000000", refereeRewardWei: "500000000000000000" });
  });
});
