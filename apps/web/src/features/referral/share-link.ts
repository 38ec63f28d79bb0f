export interface InviteLinkInput {
  referralCode: string;
  /** The sharer's username, shown to the friend who opens the link. */
  referredBy: string | null;
  /** The mini app's id in World App; without one the link opens this web app directly. */
  worldAppId: string | undefined;
  /** This app's origin, for the direct link. */
  origin: string;
  /** The sharer's language: the link's preview (title, description, image) is in it. */
  language: string;
}

/**
 * The invite deep link: World App's link to this mini app with the path `/invite?referralCode=…&referredBy=…&lang=…`.
 * That path answers link previews (World's universal link and chat apps read its og:image and title, in `lang`: the
 * API's /api/invite, where Caddy and the dev stack send it) and takes a person on to `/?referralCode=…&referredBy=…`
 * inside the app (which keeps both values until the invite is accepted; the app reads them on any path). Without an
 * app id (development) the same path opens the web app itself.
 */
export function buildInviteLink({ referralCode, referredBy, worldAppId, origin, language }: InviteLinkInput): string {
  const query = new URLSearchParams({ referralCode });
  if (referredBy) query.set("referredBy", referredBy);
  query.set("lang", language);
  const path = `/invite?${query.toString()}`;
  if (!worldAppId) return `${origin.replace(/\/$/, "")}${path}`;
  const link = new URL("https://world.org/mini-app");
  link.searchParams.set("app_id", worldAppId);
  link.searchParams.set("path", path);
  return link.toString();
}
