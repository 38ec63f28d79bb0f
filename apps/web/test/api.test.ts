import { describe, expect, it } from "vitest";
import { ApiRequestError, createOroApi, retryAfterMsOf, toApiLocale } from "../src/lib/api";
import { USER } from "./fakes";

/** The API module on the generated client, against a recorded fetch. */
function withFetch(answer: (request: Request) => Response) {
  const requests: Request[] = [];
  const api = createOroApi({
    baseUrl: "http://127.0.0.1:3999",
    token: () => "session-token",
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      requests.push(request);
      return Promise.resolve(answer(request));
    },
  });
  return { api, requests };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("API module", () => {
  it("gets the sign-in nonce from GET /api/auth/nonce", async () => {
    const { api, requests } = withFetch(() => json({ nonce: "abcdEFGH1234", expiresAt: "2030-01-01T00:00:00.000Z", statement: "Claim ORO daily on the chain." }));
    expect(await api.getSignInNonce()).toEqual({ nonce: "abcdEFGH1234", statement: "Claim ORO daily on the chain." });
    expect(requests[0]?.method).toBe("GET");
    expect(new URL(requests[0]?.url ?? "").pathname).toBe("/api/auth/nonce");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer session-token");
  });

  it("posts the walletAuth result to /api/auth/siwe and returns the session", async () => {
    const session = { token: "t", expiresAt: "2030-01-01T00:00:00.000Z", user: { userId: "u", address: USER, username: "ana" } };
    const { api, requests } = withFetch(() => json(session));
    expect(await api.signIn({ message: "m", signature: "0x12", address: USER, username: "ana" })).toEqual(session);
    expect(requests[0]?.method).toBe("POST");
    expect(new URL(requests[0]?.url ?? "").pathname).toBe("/api/auth/siwe");
    expect(await requests[0]?.json()).toEqual({ message: "m", signature: "0x12", address: USER, username: "ana" });
  });

  it("turns an error answer into an ApiRequestError with the API's code", async () => {
    const { api } = withFetch(() => json({ error: "NONCE_REUSED", message: "This sign-in nonce was already used" }, 401));
    const error = await api.signIn({ message: "m", signature: "0x12", address: USER }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 401, code: "NONCE_REUSED" });
  });

  it("keeps the wait a refusal names (retry-after, as the API sends it with a 429), and none when it names none", async () => {
    const limited = withFetch(
      () =>
        new Response(JSON.stringify({ error: "RATE_LIMITED", message: "too many requests for this address: retry in 17 s" }), {
          status: 429,
          headers: { "content-type": "application/json", "retry-after": "17" },
        }),
    ).api;
    expect(await limited.getCurrentStreak(USER, { bypassCache: true }).catch((caught: unknown) => caught)).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfterMs: 17_000 });
    const refused = withFetch(() => json({ error: "NOT_FOUND", message: "no" }, 404)).api;
    expect(await refused.getCurrentStreak(USER, { bypassCache: true }).catch((caught: unknown) => caught)).toMatchObject({ status: 404, retryAfterMs: null });
    // The header's other form, an HTTP date; anything else is no wait at all.
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(retryAfterMsOf("Tue, 01 Jan 2030 00:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMsOf("Mon, 31 Dec 2029 23:59:00 GMT", now)).toBe(0);
    expect([retryAfterMsOf(null), retryAfterMsOf(""), retryAfterMsOf("soon"), retryAfterMsOf("-3")]).toEqual([null, null, null, null]);
  });

  it("accepts an invite code by POST /api/referrals/refer_with_signature, and throws the API's refusal like every other call", async () => {
    const accepted = {
      referral: { id: "r1", referralCode: "ABCD2345", status: "pending", createdAt: "2030-01-01T00:00:00.000Z" },
      referralUser: { userId: "u2", username: "bob" },
    };
    const input = { referralCode: "ABCD2345", signature: "0x5167", nonce: "InviteNonce1234" };
    const { api, requests } = withFetch(() => json(accepted));
    expect(await api.acceptReferral(USER, input)).toEqual({ referral: { id: "r1", referralCode: "ABCD2345", status: "pending" }, referralUser: { userId: "u2", username: "bob" } });
    expect(requests[0]?.method).toBe("POST");
    expect(Object.fromEntries(new URL(requests[0]?.url ?? "").searchParams)).toEqual({ userAddress: USER, ...input });
    const refused = withFetch(() => json({ error: "REFERRAL_CODE_NOT_FOUND", message: "No such referral code" }, 404)).api;
    const error = await refused.acceptReferral(USER, input).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 404, code: "REFERRAL_CODE_NOT_FOUND" });
  });

  it("reads the streak with bypassCache=true only when asked, and keeps the API's message on failure", async () => {
    const { api, requests } = withFetch((request) =>
      new URL(request.url).searchParams.get("bypassCache") === "true"
        ? json({ error: "STREAK_UNAVAILABLE", message: "The streak service is not answering" }, 503)
        : json({ address: USER.toLowerCase(), currentStreak: 3, longestStreak: 5, numOfMints: 4, lastMintedAt: 1, nextMintAt: 2, streakExpiresAt: 3, nullifierHash: "0x1", cachedAt: "2030-01-01T00:00:00.000Z", stale: false }),
    );
    expect(await api.getCurrentStreak(USER, { bypassCache: false })).toEqual({ currentStreak: 3, longestStreak: 5 });
    expect(new URL(requests[0]?.url ?? "").searchParams.has("bypassCache")).toBe(false);
    await expect(api.getCurrentStreak(USER, { bypassCache: true })).rejects.toThrow("The streak service is not answering");
    expect(new URL(requests[1]?.url ?? "").pathname).toBe("/api/streaks/current");
  });

  it("sends the notification calls with the lower-case address and a two-letter locale", async () => {
    const { api, requests } = withFetch(() => json({ locale: "fil", scheduledFor: "2030-01-01T00:00:00.000Z", replaced: false }));
    await api.setNotificationLocale(USER, "fil");
    await api.scheduleClaimReminder(USER, "pt-BR");
    const [locale, reminder] = requests.map((request) => new URL(request.url));
    expect(requests.map((request) => request.method)).toEqual(["POST", "POST"]);
    expect(locale?.pathname).toBe("/api/notifications/set_locale");
    expect(Object.fromEntries(locale?.searchParams ?? [])).toEqual({ userAddress: USER.toLowerCase(), locale: "tl" });
    expect(reminder?.pathname).toBe("/api/notifications/oro_claim");
    expect(Object.fromEntries(reminder?.searchParams ?? [])).toEqual({ userAddress: USER.toLowerCase(), locale: "pt" });
  });

  it("maps every app language to a two-letter code (Filipino as tl) and anything else to en", () => {
    expect(["en", "es", "fil", "id", "ja", "ko", "pt", "th"].map(toApiLocale)).toEqual(["en", "es", "tl", "id", "ja", "ko", "pt", "th"]);
    expect(toApiLocale("JA-jp")).toBe("ja");
    expect(toApiLocale("de")).toBe("en");
    expect(toApiLocale(undefined)).toBe("en");
  });

  it("keys token prices by the lower-case address whatever case the answer uses", async () => {
    const { api, requests } = withFetch(() => json({ [USER]: { priceUsd: 0.02, percentChange24hr: -1.5 } }));
    expect(await api.getTokenPrices([USER])).toEqual({ [USER.toLowerCase()]: { priceUsd: 0.02, percentChange24hr: -1.5 } });
    expect(new URL(requests[0]?.url ?? "").searchParams.getAll("tokenAddresses")).toEqual([USER]);
  });

  it("posts the email with the bearer token", async () => {
    const { api, requests } = withFetch(() => json({ submitted: true, submittedAt: "2030-01-01T00:00:00.000Z" }));
    await api.submitEmail(USER, "ana@example.com");
    expect(requests[0]?.method).toBe("POST");
    expect(requests[0]?.headers.get("authorization")).toBe("Bearer session-token");
    expect(await requests[0]?.json()).toEqual({ email: "ana@example.com" });
  });
});
