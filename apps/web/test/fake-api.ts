import { toReferralEarnings, type OroApi, type PendingEnrolmentText } from "../src/lib/api";
import { ApiRequestError, type Poll } from "../src/lib/api";
import { DAY, DEFAULT_POLLS, lastMintedAgo, OWN_CODE, TOKEN, type FakeOptions, type RecordCall } from "./fake-values";

/** The API as a healthy local stack answers it, but for what `options` say; polls and pending enrolments it keeps. */
export function fakeApi(options: FakeOptions, record: RecordCall): OroApi {
  const lastAgo = lastMintedAgo(options);
  let apiPending: PendingEnrolmentText | null = options.apiPending ?? null;
  let apiPendingReadFailures = options.apiPendingReadFailures ?? 0;
  const polls: Poll[] = structuredClone(options.polls ?? DEFAULT_POLLS);

  return {
    getSignInNonce: () => (record("getSignInNonce"), Promise.resolve({ nonce: "abcdef123456", statement: "Claim ORO daily on the chain." })),
    signIn: (body) => {
      record("signIn", body);
      return Promise.resolve({ token: "session-token", expiresAt: new Date(Date.now() + DAY * 1000).toISOString(), user: { userId: "u1", address: body.address, username: "alice" } });
    },
    getCurrentStreak: (address, opts) => {
      record("getCurrentStreak", address, opts);
      const after = opts.bypassCache ? options.streakAfterClaim : undefined;
      const refusal = after?.refusals.shift();
      if (refusal) return Promise.reject(refusal);
      const streak = after?.streak ?? options.streak ?? { currentStreak: 4 };
      return streak instanceof Error ? Promise.reject(streak) : Promise.resolve(streak);
    },
    clearStreakCache: (address) => (record("clearStreakCache", address), Promise.resolve()),
    setNotificationLocale: (address, locale) => (record("setNotificationLocale", address, locale), Promise.resolve()),
    scheduleClaimReminder: (address, locale) => (record("scheduleClaimReminder", address, locale), Promise.resolve()),
    getIsInUS: () => Promise.resolve(false),
    getSwapRewardTerms: () => (record("getSwapRewardTerms"), Promise.resolve({ minSwapVolumeUsd: options.swapReward?.minSwapVolumeUsd ?? 5 })),
    getSwapReward: (address) => (record("getSwapReward", address), Promise.resolve(options.swapReward ?? { rewardStatus: "Eligible", totalSwapVolumeUsd: 12.5, minSwapVolumeUsd: 5 })),
    submitEmail: (address, email) => (record("submitEmail", address, email), Promise.resolve()),
    getEmailSubmitted: (address) => (record("getEmailSubmitted", address), Promise.resolve(options.emailSubmitted ?? false)),
    getTokenPrices: (tokens) => {
      record("getTokenPrices", tokens);
      const price = options.price === undefined ? { priceUsd: 0.0234, percentChange24hr: 3.4 } : options.price;
      return Promise.resolve(price ? { [TOKEN.toLowerCase()]: price } : {});
    },
    getWorldIdRequest: (_address, kind) => {
      record("getWorldIdRequest", kind);
      return Promise.resolve({ rp_id: "rp_test", nonce: "n", created_at: 0, expires_at: 1, signature: "0x" });
    },
    getWorldIdStatus: () => Promise.resolve({ idkitSessionId: options.knownSession ?? null, movedToWorldId4: false }),
    getPendingEnrolment: (address) => {
      record("getPendingEnrolment", address);
      if (apiPendingReadFailures > 0) {
        apiPendingReadFailures -= 1;
        return Promise.reject(new ApiRequestError(503, "INTERNAL_ERROR", "the API did not answer"));
      }
      return Promise.resolve(apiPending);
    },
    keepPendingEnrolment: (address, pending) => {
      record("keepPendingEnrolment", address, pending);
      apiPending = structuredClone(pending);
      return Promise.resolve();
    },
    forgetPendingEnrolment: (address) => {
      record("forgetPendingEnrolment", address);
      apiPending = null;
      return Promise.resolve();
    },
    getTokenStats: () => {
      record("getTokenStats");
      const holders = options.holders ?? 48_213;
      return holders instanceof Error ? Promise.reject(holders) : Promise.resolve({ holders, stale: false });
    },
    getPolls: (language) => (record("getPolls", language), Promise.resolve(structuredClone(polls))),
    votePoll: (address, pollId, optionId, language) => {
      record("votePoll", address, pollId, optionId, language);
      if (options.voteError) return Promise.reject(new ApiRequestError(409, options.voteError, options.voteError));
      const poll = polls.find((each) => each.id === pollId);
      if (!poll) return Promise.reject(new ApiRequestError(404, "POLL_NOT_FOUND", "no such poll"));
      if (poll.status === "closed") return Promise.reject(new ApiRequestError(409, "POLL_CLOSED", "the poll is closed"));
      const option = poll.options.find((each) => each.id === optionId);
      if (!option) return Promise.reject(new ApiRequestError(400, "OPTION_NOT_FOUND", "no such option"));
      const previous = poll.options.find((each) => each.id === poll.myVote);
      if (previous) previous.votes -= 1;
      else poll.totalVotes += 1;
      option.votes += 1;
      poll.myVote = optionId;
      return Promise.resolve(structuredClone(poll));
    },
    getReferralCode: (address) => {
      record("getReferralCode", address);
      const code = options.referralCode ?? OWN_CODE;
      return code instanceof Error ? Promise.reject(code) : Promise.resolve(code);
    },
    getReferralEligibility: (address) => {
      record("getReferralEligibility", address);
      // Like the API: a human who has minted may no longer accept a code.
      const answer =
        options.eligibility ??
        (lastAgo === null
          ? { eligible: true, reason: "NEVER_CLAIMED", referralApplied: false, referrerUsername: null }
          : { eligible: false, reason: "ALREADY_CLAIMED", referralApplied: false, referrerUsername: null });
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    getReferralProgramme: () => (record("getReferralProgramme"), Promise.resolve({ referrerRewardWei: options.referrerRewardWei ?? 10n ** 18n, refereeRewardWei: 5n * 10n ** 17n })),
    getReferralNonce: (address) => (record("getReferralNonce", address), Promise.resolve("InviteNonce1234")),
    acceptReferral: (address, input) => {
      record("acceptReferral", address, input);
      if (options.acceptError) return Promise.reject(new ApiRequestError(400, options.acceptError, `Referral refused: ${options.acceptError}`));
      return Promise.resolve({
        referral: { id: "r1", referralCode: input.referralCode, status: "pending" },
        referralUser: { userId: "u2", username: "bob" },
      });
    },
    getReferralEarnings: (address, opts) => {
      record("getReferralEarnings", address, opts);
      const given = typeof options.earnings === "function" ? options.earnings(opts.cursor) : options.earnings;
      const answer = given ?? { totalOroEarnedWei: "0", usersReferred: [], rewardForBeingReferee: null, referredByUsername: null, refereeRewardPending: false, usersReferredCount: 0, nextCursor: null };
      if (answer instanceof Error) return Promise.reject(answer);
      try {
        return Promise.resolve(toReferralEarnings(answer));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}
