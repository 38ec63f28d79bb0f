import type { TestApp } from "./app.js";
import type { FakeIndexer } from "./fake-indexer.js";
import { newUser, type TestUser } from "./referrals.js";
import { bearer } from "./siwe.js";

export const DAY = 86_400;
export const now = () => Math.floor(Date.now() / 1000);

/**
 * The calls of the per-human referral tests (one human, one reward), on the file's app (testAppForFile) and fake indexer:
 * humans numbered from `firstHuman`, users verified as a human of their own, a referee's referral, eligibility.
 */
export function perHumanCalls(app: TestApp, indexer: FakeIndexer, firstHuman: bigint) {
  let humanCounter = firstHuman;
  const newHuman = () => ++humanCounter;
  return {
    newHuman,
    verifiedUser: async (username?: string): Promise<TestUser> => {
      const user = await newUser(app.app, username);
      indexer.mint(user.account.address, newHuman(), now() - DAY);
      return user;
    },
    referralOf: (referee: TestUser) => app.db.database.prisma.referral.findFirstOrThrow({ where: { referee: { address: referee.address } } }),
    eligibility: (user: TestUser) => app.app.inject({ method: "GET", url: `/api/referrals/eligibility?userAddress=${user.address}`, headers: bearer(user.token) }),
  };
}
