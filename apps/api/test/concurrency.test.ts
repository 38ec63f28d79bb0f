import { buildReferralMessage } from "@oro/clients";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers/app.js";
import { FakeIndexer } from "./helpers/fake-indexer.js";
import { newUser, referralCodeOf, referralNonce } from "./helpers/referrals.js";
import { bearer } from "./helpers/siwe.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ indexer: new FakeIndexer(), env: { RATE_LIMIT_PER_ADDRESS: "1000", RATE_LIMIT_PER_IP: "10000" } });
});
afterAll(async () => {
  await t.close();
});

describe("concurrent invites", () => {
  it("100 parallel accepts for one referee, each validly signed, create exactly one referral", async () => {
    const referee = await newUser(t.app);
    const referrers = await Promise.all(Array.from({ length: 5 }, () => newUser(t.app)));
    const codes = await Promise.all(referrers.map((referrer) => referralCodeOf(t.app, referrer)));
    // Every request carries its own nonce and signature, so nothing but the database can stop the 99.
    const requests = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const code = codes[i % codes.length] ?? "";
        const nonce = await referralNonce(t.app, referee);
        const signature = await referee.account.signMessage({
          message: buildReferralMessage({ referralCode: code, address: referee.address, nonce }),
        });
        return new URLSearchParams({ userAddress: referee.address, referralCode: code, signature, nonce });
      }),
    );
    const accept = (query: URLSearchParams) =>
      t.app.inject({ method: "POST", url: `/api/referrals/refer_with_signature?${query.toString()}`, headers: bearer(referee.token) });
    const burst = await Promise.all(requests.map(accept));
    // A request that waited past the pool's connection timeout (a loaded machine) is a 503 the caller retries, as the
    // app does: asked again once the burst is over, it gets the answer the database gives.
    const responses = [];
    for (const [i, response] of burst.entries()) {
      if (response.statusCode !== 503) {
        responses.push(response);
        continue;
      }
      expect(response.json()).toMatchObject({ error: "DATABASE_UNAVAILABLE" });
      expect(response.headers["retry-after"]).toBe("1");
      responses.push(await accept(requests[i] ?? new URLSearchParams()));
    }
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(99);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json()).toMatchObject({ error: "REFERRAL_ALREADY_EXISTS" });
    }
    const referee_ = await t.db.database.prisma.user.findUniqueOrThrow({ where: { address: referee.address } });
    expect(await t.db.database.prisma.referral.count({ where: { refereeId: referee_.id } })).toBe(1);
  });
});
