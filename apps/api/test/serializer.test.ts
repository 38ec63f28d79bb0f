import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { serializerCompiler } from "../src/plugins/serializer.js";
import { oroEarnedResponseSchema } from "../src/schemas/referrals.js";
import { pollsResponseSchema } from "../src/schemas/polls.js";
import { claimsResponseSchema, streakResponseSchema } from "../src/schemas/streaks.js";
import { frozenAnswer } from "../src/lib/frozen-answer.js";
import { tokenPricesResponseSchema } from "../src/schemas/erc20.js";

const compile = (compiler: typeof serializerCompiler, schema: z.ZodType) =>
  compiler({ schema, method: "GET", url: "/test", httpStatus: "200" });

/** The same answer written by the fast serializer and by zod's encoding reads back the same. */
function bothWays(schema: z.ZodType, data: unknown) {
  return [JSON.parse(compile(serializerCompiler, schema)(data)) as unknown, JSON.parse(compile(zodSerializerCompiler, schema)(data)) as unknown];
}

describe("the response serializer", () => {
  it("writes what zod's encoding writes, dropping undeclared fields, for the API's nested, nullable and keyed answers", () => {
    const reward = {
      paymentType: "claimable",
      paymentAmountWei: "1000000000000000000",
      hasClaimed: false,
      updatedAt: "2026-01-01T00:00:00.000Z",
      claimableSignature: { contractAddress: "0xabc", message: { account: "0xabc", amount: "1", nonce: "7" }, signature: "0x12", secret: "x" },
      voucherSignature: "internal",
    };
    const cases: [z.ZodType, unknown][] = [
      [oroEarnedResponseSchema, { totalOroEarnedWei: "1", usersReferred: [{ userId: "u", username: null, ...reward }], rewardForBeingReferee: null, referredByUsername: "ana", refereeRewardPending: false, usersReferredCount: 1, nextCursor: "abc", internal: 1 }],
      [oroEarnedResponseSchema, { totalOroEarnedWei: "0", usersReferred: [], rewardForBeingReferee: { ...reward, claimableSignature: undefined }, referredByUsername: null, refereeRewardPending: false, usersReferredCount: 0, nextCursor: null }],
      // The nullable object written as a type check, not a validated union: still stripped, signature and all.
      [oroEarnedResponseSchema, { totalOroEarnedWei: "2", usersReferred: [], rewardForBeingReferee: reward, referredByUsername: null, refereeRewardPending: false, usersReferredCount: 0, nextCursor: null }],
      [streakResponseSchema, { address: "0xab", nullifierHash: null, currentStreak: 0, longestStreak: 2, numOfMints: 2, lastMintedAt: 5, nextMintAt: null, streakExpiresAt: 9, stale: true, cachedAt: "2026-01-01T00:00:00.000Z", extra: "no" }],
      [tokenPricesResponseSchema, { "0xaa": { priceUsd: 0.5, percentChange24hr: -1.25, source: "x" }, "0xbb": { priceUsd: 2, percentChange24hr: 0 } }],
      [pollsResponseSchema, { polls: [{ id: "p", question: "Q", status: "open", opensAt: "2026-01-01T00:00:00.000Z", closesAt: null, options: [{ id: "o", label: "L", votes: 3, voters: ["x"] }], totalVotes: 3, myVote: null }] }],
    ];
    for (const [schema, data] of cases) {
      const [fast, zod] = bothWays(schema, data);
      expect(fast).toEqual(zod);
      expect(JSON.stringify(fast)).not.toMatch(/internal|secret|extra|source|voters|voucherSignature/);
    }
  });

  it("writes a frozen answer (a cached one) once per route: the same text every time, and it cannot be changed after", () => {
    const answer = frozenAnswer({ address: "0xab", nullifierHash: null, currentStreak: 3, longestStreak: 7, numOfMints: 12, lastMintedAt: 5, nextMintAt: 6, streakExpiresAt: 9, stale: false, cachedAt: "2026-01-01T00:00:00.000Z", extra: "no" });
    const write = compile(serializerCompiler, streakResponseSchema);
    const first = write(answer);
    expect(JSON.parse(first)).toEqual(JSON.parse(compile(zodSerializerCompiler, streakResponseSchema)({ ...answer })));
    expect(write(answer)).toBe(first);
    // Kept as bytes, which Fastify sends as they are (a string is measured and encoded on every send).
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(() => Object.assign(answer, { currentStreak: 4 })).toThrow(TypeError);
    // Another route's schema writes its own fields of the same answer.
    expect(JSON.parse(compile(serializerCompiler, claimsResponseSchema.pick({ stale: true, cachedAt: true }))(answer))).toEqual({ stale: false, cachedAt: "2026-01-01T00:00:00.000Z" });
  });

  it("refuses an answer that lacks a required field (a 500, never a half answer)", () => {
    expect(() => compile(serializerCompiler, streakResponseSchema)({ address: "0xab" })).toThrow();
  });
});
