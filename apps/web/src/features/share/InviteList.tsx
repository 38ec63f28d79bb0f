import { useTranslation } from "react-i18next";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import type { ClaimableSignature, ReferredUser } from "../../lib/api";
import { formatRelativeTime } from "./relative-time";
import { CheckIcon } from "./share-icons";
import { formatShareAmount } from "./share-format";
import { sortInvites } from "./sort-invites";
import { voucherKey } from "./use-reward-claim";

interface InviteListProps {
  invites: readonly ReferredUser[];
  nowMs: number;
  claimingKey: string | null;
  isClaimedOnChain: (claimable: ClaimableSignature | null) => boolean;
  onClaim: (claimable: ClaimableSignature) => void;
}

/** The people the user invited, in the spec's order, each with its reward: a check mark once paid, else Claim. */
export function InviteList({ invites, nowMs, claimingKey, isClaimedOnChain, onClaim }: InviteListProps) {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const locale = i18n.resolvedLanguage ?? "en";
  if (invites.length === 0) return <p className="share-invites__empty">{t("share.noInvites")}</p>;
  const labels = { justNow: t("share.justNow"), underAMinute: t("share.underAMinute") };
  return (
    <ul className="share-invites__list">
      {sortInvites(invites).map((invite) => {
        const amount = t("share.amount", { amount: formatShareAmount(invite.paymentAmountWei, locale) });
        const claimable = invite.claimableSignature;
        const paid = invite.paymentType === "auto" || invite.hasClaimed || isClaimedOnChain(claimable);
        const claiming = claimable !== null && claimingKey === voucherKey(claimable);
        return (
          <li key={`${invite.userId}-${claimable ? voucherKey(claimable) : "auto"}`} className="invite" data-testid="invite">
            <div className="invite__who">
              <span className="invite__name">{invite.username ?? t("share.unknownUser")}</span>
              <span className="invite__time">{formatRelativeTime(invite.updatedAt, nowMs, locale, labels)}</span>
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
                disabled={claimingKey !== null}
                aria-busy={claiming}
                aria-label={claiming ? t("share.claiming") : t("share.claimAmount", { amount })}
                onClick={() => onClaim(claimable)}
              >
                {claiming ? t("share.claiming") : t("share.claim")}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
