/** The deep link's query from what the app shared: World App's mini-app link (`path=/?referralCode=…`) or a direct one. */
export function deepLinkOf(sharedUrl: string): { referralCode: string; referredBy: string | null } {
  const url = new URL(sharedUrl);
  const inner = url.searchParams.get("path");
  const query = inner ? new URL(inner, "http://mini-app.local").searchParams : url.searchParams;
  const referralCode = query.get("referralCode");
  if (!referralCode) throw new Error(`no referralCode in the shared link ${sharedUrl}`);
  return { referralCode, referredBy: query.get("referredBy") };
}
