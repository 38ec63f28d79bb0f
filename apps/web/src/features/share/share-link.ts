export interface InviteLinkInput {
  referralCode: string;
  /** The sharer's username, shown to the friend who opens the link. */
  referredBy: string | null;
  /** The mini app's id in World App; without one the link opens this web app directly. */
  worldAppId: string | undefined;
  /** This app's origin, for the direct link. */
  origin: string;
}

/**
 * The invite deep link: World App's link to this mini app with the path `/?referralCode=…&referredBy=…`, which
 * World App opens inside the app (the app keeps both values until the invite is accepted). Without an app id
 * (development) the same query opens the web app itself.
 */
export function buildInviteLink({ referralCode, referredBy, worldAppId, origin }: InviteLinkInput): string {
  const query = new URLSearchParams({ referralCode });
  if (referredBy) query.set("referredBy", referredBy);
  const path = `/?${query.toString()}`;
  if (!worldAppId) return `${origin.replace(/\/$/, "")}${path}`;
  const link = new URL("https://world.org/mini-app");
  link.searchParams.set("app_id", worldAppId);
  link.searchParams.set("path", path);
  return link.toString();
}
