import { memo, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import type { ClaimableSignature, ReferredUser } from "../../lib/api";
import { formatRelativeTime, type RelativeTimeLabels } from "../../lib/relative-time";
import { CheckIcon } from "./share-icons";
import { formatShareAmount } from "./share-format";
import { inviteKey } from "./use-referral-earnings";
import { voucherKey } from "./use-reward-claim";

/** How far below the view the next page is asked for, so that it is usually there before the person gets to it. */
const LOAD_AHEAD = "800px 0px";

interface InviteListProps {
  /** The loaded invites, each once, in the spec's order. */
  invites: readonly ReferredUser[];
  nowMs: number;
  claimingKey: string | null;
  isClaimedOnChain: (claimable: ClaimableSignature | null) => boolean;
  onClaim: (claimable: ClaimableSignature) => void;
  /** More invites than the loaded ones exist. */
  hasMore: boolean;
  loadingMore: boolean;
  /** The last page asked for did not come: loading goes on only when the person asks again. */
  loadMoreFailed: boolean;
  onLoadMore: () => void;
}

/**
 * The people the user invited, each with its reward: a check mark once paid, else Claim. Only the loaded pages are
 * in the page; the next one comes as the list's end nears (or from the 'more' button, which keyboards and screen
 * readers reach). Rows are memoised: the clock's tick re-renders only those whose time text changed.
 */
export function InviteList({ invites, nowMs, claimingKey, isClaimedOnChain, onClaim, hasMore, loadingMore, loadMoreFailed, onLoadMore }: InviteListProps) {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const locale = i18n.resolvedLanguage ?? "en";
  const sentinel = useRef<HTMLDivElement>(null);
  const wantMore = hasMore && !loadingMore && !loadMoreFailed;

  useEffect(() => {
    const element = sentinel.current;
    if (!wantMore || !element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onLoadMore();
    }, { rootMargin: LOAD_AHEAD });
    observer.observe(element);
    return () => observer.disconnect();
  }, [wantMore, onLoadMore]);

  if (invites.length === 0 && !hasMore) return <p className="share-invites__empty">{t("share.noInvites")}</p>;
  const labels: RelativeTimeLabels = { justNow: t("share.justNow"), underAMinute: t("share.underAMinute") };
  return (
    <>
      <ul className="share-invites__list">
        {invites.map((invite) => {
          const claimable = invite.claimableSignature;
          return (
            <InviteRow
              key={inviteKey(invite)}
              invite={invite}
              time={formatRelativeTime(invite.updatedAt, nowMs, locale, labels)}
              paid={invite.paymentType === "auto" || invite.hasClaimed || isClaimedOnChain(claimable)}
              claiming={claimable !== null && claimingKey === voucherKey(claimable)}
              claimDisabled={claimingKey !== null}
              onClaim={onClaim}
              t={t}
              locale={locale}
            />
          );
        })}
      </ul>
      {hasMore && (
        <div className="share-invites__more">
          <div ref={sentinel} className="share-invites__sentinel" aria-hidden="true" />
          {loadMoreFailed && (
            <p className="share-code__error" role="alert">
              {t("share.loadError")}
            </p>
          )}
          <button type="button" className="button button--block" onClick={onLoadMore} disabled={loadingMore} aria-busy={loadingMore}>
            {loadingMore ? t("share.loadingMoreInvites") : t("share.moreInvites")}
          </button>
        </div>
      )}
    </>
  );
}

interface InviteRowProps {
  invite: ReferredUser;
  time: string;
  paid: boolean;
  claiming: boolean;
  claimDisabled: boolean;
  onClaim: (claimable: ClaimableSignature) => void;
  t: TFunction<typeof SCREEN_NAMESPACES>;
  locale: string;
}

const InviteRow = memo(function InviteRow({ invite, time, paid, claiming, claimDisabled, onClaim, t, locale }: InviteRowProps) {
  const amount = t("share.amount", { amount: formatShareAmount(invite.paymentAmountWei, locale) });
  const claimable = invite.claimableSignature;
  return (
    <li className="invite" data-testid="invite">
      <div className="invite__who">
        <span className="invite__name">{invite.username ?? t("share.unknownUser")}</span>
        <span className="invite__time">{time}</span>
      </div>
      {paid || !claimable ? (
        <button type="button" className="invite__paid" disabled aria-label={t("share.paid", { amount })}>
          <CheckIcon size={18} />
          <span>{amount}</span>
        </button>
      ) : (
        <button
          type="button"
          className="button button--small invite__claim"
          disabled={claimDisabled}
          aria-busy={claiming}
          aria-label={claiming ? t("share.claiming") : t("share.claimAmount", { amount })}
          onClick={() => onClaim(claimable)}
        >
          {claiming ? t("share.claiming") : t("share.claim")}
        </button>
      )}
    </li>
  );
});
