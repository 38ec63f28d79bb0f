import { writeStored } from "../../lib/storage";

/** A deep link may carry ?referralCode=…&referredBy=…: keep them for the referral flow. */
export function captureDeepLinkReferral(search: string): void {
  const params = new URLSearchParams(search);
  const referralCode = params.get("referralCode")?.trim();
  if (!referralCode || !/^[A-Za-z0-9]{1,32}$/.test(referralCode)) return;
  const referredBy = params.get("referredBy")?.trim().slice(0, 64) || null;
  writeStored("referralCode", { referralCode: referralCode.toUpperCase(), referredBy });
}
