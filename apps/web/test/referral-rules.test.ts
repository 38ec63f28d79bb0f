import { describe, expect, it } from "vitest";
import { ApiRequestError, InvalidPaymentTypeError, toReferralEarnings, type ReferredUser } from "../src/lib/api";
import { isCompleteReferralCode, normaliseReferralCode } from "../src/features/referral/accept-referral";
import { ReferralError, referralErrorMessageKey } from "../src/features/referral/referral-errors";
import { formatRelativeTime } from "../src/lib/relative-time";
import { buildInviteLink } from "../src/features/referral/share-link";
import { formatShareAmount } from "../src/features/referral/share-format";
import { sortInvites } from "../src/features/referral/sort-invites";
import { i18next } from "../src/i18n";

const labels = { justNow: "just now", underAMinute: "< 1m" };
const NOW = Date.parse("2026-03-10T12:00:00Z");
const ago = (seconds: number) => new Date(NOW - seconds * 1000);

describe("relative time of an invite", () => {
  it.each([
    [0, "just now"],
    [29.999, "just now"],
    [30, "< 1m"],
    [59.999, "< 1m"],
    [60, "1 min. ago"],
    [119, "1 min. ago"],
    [3599, "59 min. ago"],
    [3600, "1 hr. ago"],
    [86_399, "23 hr. ago"],
    [86_400, "1 day ago"],
    [3 * 86_400 + 5, "3 days ago"],
  ])("%s s ago reads '%s' in English", (seconds, expected) => {
    expect(formatRelativeTime(ago(seconds), NOW, "en", labels)).toBe(expected);
  });

  it("a time ahead of this clock is just now", () => {
    expect(formatRelativeTime(ago(-120), NOW, "en", labels)).toBe("just now");
  });

  it("is worded by Intl in the user's language", () => {
    expect(formatRelativeTime(ago(5 * 60), NOW, "ja", labels)).toBe(new Intl.RelativeTimeFormat("ja", { style: "short" }).format(-5, "minute"));
    expect(formatRelativeTime(ago(2 * 3600), NOW, "es", labels)).toBe(new Intl.RelativeTimeFormat("es", { style: "short" }).format(-2, "hour"));
    expect(formatRelativeTime(ago(2 * 3600), NOW, "es", labels)).not.toBe(formatRelativeTime(ago(2 * 3600), NOW, "en", labels));
  });
});

describe("invite order", () => {
  const entry = (name: string, paymentType: "claimable" | "auto", hasClaimed: boolean, secondsAgo: number) =>
    ({ username: name, paymentType, hasClaimed, updatedAt: ago(secondsAgo) }) satisfies Pick<ReferredUser, "username" | "paymentType" | "hasClaimed" | "updatedAt">;

  it("claimable unclaimed first, then claimable claimed, then the rest; newest update first in each", () => {
    const sorted = sortInvites([
      entry("auto-old", "auto", true, 500),
      entry("claimed-new", "claimable", true, 10),
      entry("open-old", "claimable", false, 900),
      entry("auto-new", "auto", false, 5),
      entry("open-new", "claimable", false, 20),
      entry("claimed-old", "claimable", true, 4000),
    ]);
    expect(sorted.map((invite) => invite.username)).toEqual(["open-new", "open-old", "claimed-new", "claimed-old", "auto-new", "auto-old"]);
  });

  it("does not reorder the list it was given", () => {
    const list = [entry("b", "auto", true, 5), entry("a", "claimable", false, 5)];
    sortInvites(list);
    expect(list.map((invite) => invite.username)).toEqual(["b", "a"]);
  });
});

describe("invite code input", () => {
  it("is upper case, without spaces, at most 8 characters", () => {
    expect(normaliseReferralCode(" ab cd 2345xyz")).toBe("ABCD2345");
    expect(normaliseReferralCode("k7qx")).toBe("K7QX");
  });
  it("is complete at exactly 8 characters", () => {
    expect(isCompleteReferralCode("ABCD234")).toBe(false);
    expect(isCompleteReferralCode("ABCD2345")).toBe(true);
  });
});

describe("error catalogue (spec section 8)", () => {
  const text = (error: unknown) => i18next.t(referralErrorMessageKey(error), { ns: "screens" });
  it.each([
    [new ApiRequestError(404, "REFERRAL_CODE_NOT_FOUND", ""), "The code you entered does not exist."],
    [new ReferralError("REFERRAL_CODE_NOT_FOUND"), "The code you entered does not exist."],
    [new ApiRequestError(409, "REFERRAL_ALREADY_EXISTS", ""), "You have already accepted an invite."],
    [new ReferralError("NOT_ELIGIBLE"), "You've already claimed. Invite friends to start earning more ORO."],
    [new ReferralError("NO_SELF_REFERRAL"), "You cannot refer yourself."],
    [new ReferralError("NOT_CONNECTED"), "An unknown error occurred."],
    [new ReferralError("SIGNATURE_REQUIRED"), "An unknown error occurred."],
    [new ApiRequestError(503, "ELIGIBILITY_UNAVAILABLE", ""), "An unknown error occurred."],
    [new ReferralError("toString"), "An unknown error occurred."],
    [new Error("network down"), "An unknown error occurred."],
  ])("%s → %s", (error, expected) => {
    expect(text(error)).toBe(expected);
  });

  it("is translated in every other language", async () => {
    for (const language of ["es", "fil", "id", "ja", "ko", "pt", "th"]) {
      const { default: strings } = (await import(`../src/i18n/screens/${language}.json`)) as { default: { referral: { errors: Record<string, string> } } };
      i18next.addResourceBundle(language, "screens", strings, true, false);
      const fixed = i18next.getFixedT(language, "screens");
      expect(fixed("referral.errors.codeNotFound")).not.toBe("The code you entered does not exist.");
      expect(fixed("referral.errors.unknown")).toBe(strings.referral.errors.unknown);
    }
  });
});

describe("earnings answer", () => {
  const reward = { paymentType: "claimable", paymentAmountWei: "1000000000000000000", hasClaimed: false, updatedAt: "2026-03-10T11:00:00.000Z" } as const;
  it("turns amounts into bigint wei and dates into Date", () => {
    const earnings = toReferralEarnings({
      totalOroEarnedWei: "1500000000000000000",
      usersReferred: [{ userId: "u", username: "ana", ...reward }],
      rewardForBeingReferee: null,
      referredByUsername: "bob",
      refereeRewardPending: true,
      usersReferredCount: 40,
      nextCursor: "next",
    });
    expect(earnings.totalOroEarnedWei).toBe(1_500_000_000_000_000_000n);
    expect(earnings).toMatchObject({ usersReferredCount: 40, nextCursor: "next", refereeRewardPending: true });
    expect(earnings.usersReferred[0]?.updatedAt.toISOString()).toBe("2026-03-10T11:00:00.000Z");
    expect(earnings.usersReferred[0]?.claimableSignature).toBeNull();
  });

  it("an unknown payment type throws 'Invalid payment type'", () => {
    const answer = { totalOroEarnedWei: "0", usersReferred: [{ userId: "u", username: null, ...reward, paymentType: "cheque" }], rewardForBeingReferee: null, referredByUsername: null };
    expect(() => toReferralEarnings(answer as unknown as Parameters<typeof toReferralEarnings>[0])).toThrow(InvalidPaymentTypeError);
    expect(() => toReferralEarnings(answer as unknown as Parameters<typeof toReferralEarnings>[0])).toThrow("Invalid payment type");
  });
});

describe("share amounts and the invite link", () => {
  it("show up to 2 fraction digits, never rounded up", () => {
    expect(formatShareAmount(1_500_000_000_000_000_000n, "en")).toBe("1.5");
    expect(formatShareAmount(1_239_999_999_999_999_999n, "en")).toBe("1.23");
    expect(formatShareAmount(1234_000_000_000_000_000_000n, "en")).toBe("1,234");
    expect(formatShareAmount(0n, "en")).toBe("0");
    expect(formatShareAmount(2_500_000_000_000_000_000n, "pt")).toBe("2,5");
  });

  it("a World App deep link into the mini app's invite path carries referralCode, referredBy and the sharer's language", () => {
    const link = new URL(buildInviteLink({ referralCode: "ABCD2345", referredBy: "ana b", worldAppId: "app_123", origin: "https://oro.example", language: "ja" }));
    expect(link.origin + link.pathname).toBe("https://world.org/mini-app");
    expect(link.searchParams.get("app_id")).toBe("app_123");
    const path = new URL(link.searchParams.get("path") ?? "", "https://x.example");
    // /invite answers the link's preview (the API's og tags) and takes a person on to /?referralCode=…
    expect(path.pathname).toBe("/invite");
    expect(path.searchParams.get("referralCode")).toBe("ABCD2345");
    expect(path.searchParams.get("referredBy")).toBe("ana b");
    expect(path.searchParams.get("lang")).toBe("ja");
  });

  it("without an app id the link opens this web app", () => {
    expect(buildInviteLink({ referralCode: "ABCD2345", referredBy: null, worldAppId: undefined, origin: "http://127.0.0.1:5173/", language: "en" })).toBe(
      "http://127.0.0.1:5173/invite?referralCode=ABCD2345&lang=en",
    );
  });
});
