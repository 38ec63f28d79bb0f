import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { GiftIcon } from "../../components/Icons";
import { Modal } from "../../components/Modal";
import { loadScreenStrings } from "../../i18n";
import { isLanguage } from "../../i18n/languages";
import { formatClaimAmount } from "../../lib/format";
import { useServices } from "../../lib/services";
import { readStored, useStored, writeStored } from "../../lib/storage";
import { AppIcon } from "../apps";
import { AFTER_CLAIM_QUIET_MS } from "../after-claim";
import { amountPerMintQuery, useClaim } from "../claim";
import { ANNOUNCEMENT_DELAY_MS, HALVING_AT, nextAnnouncement, type Announcement } from "./announcements";

// The announcements' strings come with them (the screens namespace).
await loadScreenStrings();

/**
 * The announcements (halving teaser or halving, referral, partner apps): each shown once (remembered in
 * storage), at most one per visit, never together with another modal: they wait while the claim flow has a
 * modal, the email form or a claim under way, and until its after-claim modals have had their turn. They also
 * wait while a finger or the mouse button is down (a slide to claim, a scroll): a modal that opens under a
 * gesture takes it over, and the quiet moment is counted again from its release.
 */
export default function AnnouncementHost() {
  const claim = useClaim();
  const { chain } = useServices();
  const seen = useStored("seenAnnouncements");
  const [current, setCurrent] = useState<Announcement | null>(null);
  const [doneThisVisit, setDoneThisVisit] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  const afterClaimUntil = claim.successAt === null ? 0 : claim.successAt + AFTER_CLAIM_QUIET_MS;
  const claimBusy = claim.phase === "requested" || claim.phase === "confirming";
  const touching = usePointerHeld();
  const claimFirst = claim.modals.active !== null || claim.showEmailForm || claimBusy || now < afterClaimUntil;
  const blocked = claimFirst || touching;

  // Re-check once the after-claim window has passed.
  useEffect(() => {
    if (afterClaimUntil <= Date.now()) return;
    const timer = window.setTimeout(() => setNow(Date.now()), afterClaimUntil - Date.now() + 10);
    return () => window.clearTimeout(timer);
  }, [afterClaimUntil]);

  const [amountFailed, setAmountFailed] = useState(false);
  const candidate = useMemo(
    () => (doneThisVisit || current ? null : nextAnnouncement(now, seen, new Set(amountFailed ? ["halving"] : []))),
    [doneThisVisit, current, now, seen, amountFailed],
  );
  // The halving's amount is read from the chain (the claim's own query), never typed in; only when it is next.
  const amountPerMint = useQuery({
    ...amountPerMintQuery(chain),
    enabled: candidate?.kind === "halving" || current?.kind === "halving",
    retry: 1,
  });
  useEffect(() => {
    if (amountPerMint.isError) setAmountFailed(true);
  }, [amountPerMint.isError]);
  const ready = candidate !== null && (candidate.kind !== "halving" || amountPerMint.data !== undefined);

  useEffect(() => {
    if (blocked || !ready || !candidate) return;
    const timer = window.setTimeout(() => {
      // Remembered as soon as it shows: a reload never brings the same one back.
      writeStored("seenAnnouncements", [...readStored("seenAnnouncements"), candidate.id]);
      setCurrent(candidate);
    }, ANNOUNCEMENT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [blocked, ready, candidate]);

  const close = () => {
    setCurrent(null);
    setDoneThisVisit(true);
  };
  // A claim modal that comes up meanwhile goes first; the announcement comes back when it has closed. (A touch
  // does not hide one already open: that touch is on it.)
  if (!current || claimFirst) return null;
  return <AnnouncementModal announcement={current} amountPerMint={amountPerMint.data ?? null} onClose={close} />;
}

/** Whether a pointer (mouse button, pen, finger) is down anywhere on the page. */
function usePointerHeld(): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    const pointers = new Set<number>();
    let touches = 0;
    const sync = () => setHeld(pointers.size > 0 || touches > 0);
    const down = (event: PointerEvent) => {
      pointers.add(event.pointerId);
      sync();
    };
    const up = (event: PointerEvent) => {
      pointers.delete(event.pointerId);
      sync();
    };
    // A touch that turns into a scroll cancels its pointer but is still a finger on the screen.
    const touch = (event: TouchEvent) => {
      touches = event.touches.length;
      sync();
    };
    const options = { capture: true, passive: true };
    window.addEventListener("pointerdown", down, options);
    window.addEventListener("pointerup", up, options);
    window.addEventListener("pointercancel", up, options);
    for (const type of ["touchstart", "touchend", "touchcancel"] as const) window.addEventListener(type, touch, options);
    // A release outside the page (the mouse let go over another window) is never seen: leaving the page ends it.
    const reset = () => {
      pointers.clear();
      touches = 0;
      sync();
    };
    window.addEventListener("blur", reset);
    return () => {
      window.removeEventListener("blur", reset);
      window.removeEventListener("pointerdown", down, options);
      window.removeEventListener("pointerup", up, options);
      window.removeEventListener("pointercancel", up, options);
      for (const type of ["touchstart", "touchend", "touchcancel"] as const) window.removeEventListener(type, touch, options);
    };
  }, []);
  return held;
}

function AnnouncementModal({ announcement, amountPerMint, onClose }: { announcement: Announcement; amountPerMint: bigint | null; onClose: () => void }) {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const { wallet } = useServices();
  const navigate = useNavigate();
  const locale = i18n.resolvedLanguage ?? "en";
  const halvingDate = new Intl.DateTimeFormat(locale, { month: "long", day: "numeric", timeZone: "UTC" }).format(HALVING_AT);
  const action = (label: string, run: () => void) => (
    <button
      type="button"
      className="button button--primary button--block"
      onClick={() => {
        run();
        onClose();
      }}
    >
      {label}
    </button>
  );

  switch (announcement.kind) {
    case "halvingTeaser":
      return (
        <Modal open onClose={onClose} title={t("announcements.halvingTeaser.title", { date: halvingDate })} art={<GiftIcon size={56} />}>
          <p className="modal__body">{t("announcements.halvingTeaser.body", { date: halvingDate })}</p>
          {action(t("announcements.gotIt"), () => undefined)}
        </Modal>
      );
    case "halving":
      return (
        <Modal open onClose={onClose} title={t("announcements.halving.title")} art={<GiftIcon size={56} />}>
          <p className="modal__body">
            {t("announcements.halving.body", { amount: amountPerMint === null ? "…" : formatClaimAmount(amountPerMint, locale), date: halvingDate })}
          </p>
          {action(t("announcements.gotIt"), () => undefined)}
        </Modal>
      );
    case "referral":
      return (
        <Modal open onClose={onClose} title={t("announcements.referral.title")} art={<GiftIcon size={56} />}>
          <p className="modal__body">{t("announcements.referral.body")}</p>
          {action(t("announcements.referral.action"), () => void navigate("/share"))}
        </Modal>
      );
    case "partner": {
      const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : "en";
      return (
        <Modal open onClose={onClose} title={t("announcements.partner.title", { name: announcement.app.name })} art={<AppIcon app={announcement.app} size={56} />}>
          <p className="modal__body">{announcement.app.tagline[language]}</p>
          {action(t("announcements.partner.action", { name: announcement.app.name }), () => wallet.openUrl(announcement.app.url))}
        </Modal>
      );
    }
  }
}
