import { PARTNER_APPS, type PartnerApp } from "../../data/partner-apps";

/** How long the screen is left alone before an announcement shows (on opening, or after the claim flow's modals). */
export const ANNOUNCEMENT_DELAY_MS = 1500;

/** The halving: from October 16 (2025, 00:00 UTC) the reward is cut; the teaser runs before it, the announcement after. */
export const HALVING_AT = Date.UTC(2025, 9, 16);

export type Announcement =
  | { id: "halving-teaser"; kind: "halvingTeaser" }
  | { id: "halving"; kind: "halving" }
  | { id: "referral"; kind: "referral" }
  | { id: string; kind: "partner"; app: PartnerApp };

/** Every announcement that applies at `nowMs`, in the order they are shown (one per visit). */
export function announcementsAt(nowMs: number, partnerApps: readonly PartnerApp[] = PARTNER_APPS): Announcement[] {
  const halving: Announcement = nowMs < HALVING_AT ? { id: "halving-teaser", kind: "halvingTeaser" } : { id: "halving", kind: "halving" };
  const partners = partnerApps.flatMap((app): Announcement[] => (app.announcement ? [{ id: app.announcement.id, kind: "partner", app }] : []));
  return [halving, { id: "referral", kind: "referral" }, ...partners];
}

/** Every announcement id there is (for storage and the debug page). */
export function allAnnouncementIds(partnerApps: readonly PartnerApp[] = PARTNER_APPS): string[] {
  return ["halving-teaser", "halving", ...announcementsAt(HALVING_AT, partnerApps).slice(1).map((announcement) => announcement.id)];
}

/** The first announcement not yet seen, skipping those that cannot be shown yet (`unavailable`). */
export function nextAnnouncement(
  nowMs: number,
  seen: readonly string[],
  unavailable: ReadonlySet<string> = new Set(),
  partnerApps: readonly PartnerApp[] = PARTNER_APPS,
): Announcement | null {
  return announcementsAt(nowMs, partnerApps).find((announcement) => !seen.includes(announcement.id) && !unavailable.has(announcement.id)) ?? null;
}
