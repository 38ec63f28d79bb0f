import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { Link } from "react-router";
import { TextWithLink } from "../../components/TextWithLink";
import { env } from "../../env";
import type { ClaimableSignature } from "../../lib/api";
import { useServices } from "../../lib/services";
import { useStored, writeStored } from "../../lib/storage";
import { useNowSeconds } from "../../lib/use-now";
import { useOwnReferralCode, useReferralProgramme } from "./use-referral";
import { SignInButton } from "../session";
import { useSession } from "../session";
import { CopyCode } from "./CopyCode";
import { InviteList } from "./InviteList";
import { RefereePanel } from "./RefereePanel";
import { RefereeSuccessModal, type RefereeSuccess } from "./RefereeSuccessModal";
import { ShareIcon } from "./share-icons";
import { buildInviteLink } from "./share-link";
import { formatShareAmount } from "./share-format";
import { useReferralEarnings } from "./use-referral-earnings";
import { useRewardClaim, voucherKey, type RewardClaimOutcome } from "./use-reward-claim";
import "./share.css";

/** Relative times move on every 30 s (the finest step shown is 'just now' / '< 1m'). */
const CLOCK_TICK_MS = 30_000;

/** The share screen (spec section 2): the own code, sharing, totals, invites and the referee's reward. */
export function ShareScreen() {
  const { t, i18n } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const locale = i18n.resolvedLanguage ?? "en";
  const { wallet } = useServices();
  const user = useSession();
  const address = user?.address ?? null;
  const code = useOwnReferralCode(address);
  const earnings = useReferralEarnings(address);
  const seenTerms = useStored("hasSeenShareTerms");
  const nowMs = useNowSeconds(CLOCK_TICK_MS) * 1000;
  const [success, setSuccess] = useState<RefereeSuccess | null>(null);

  const first = earnings.first;
  const referrerName = first?.referredByUsername ?? t("share.unknownUser");
  const onClaimed = useCallback(
    ({ type, claimable }: RewardClaimOutcome) => {
      if (type === "claim") setSuccess({ amountWei: BigInt(claimable.message.amount), referrerName, at: Date.now() });
    },
    [referrerName],
  );
  const rewards = useRewardClaim(address, onClaimed);
  const { claim } = rewards;
  const claimInvite = useCallback((claimable: ClaimableSignature) => void claim(claimable, "referral"), [claim]);
  const { fetchNextPage } = earnings;
  const loadMoreInvites = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);

  const programme = useReferralProgramme();
  const header = (
    <>
      <h1 className="page__title">{t("share.title")}</h1>
      {/* The amount is the API's setting; the line keeps its place while it loads. */}
      <p className="page__body" aria-busy={!programme.data}>
        {programme.data ? t("share.earn", { amount: formatShareAmount(programme.data.referrerRewardWei, locale) }) : "\u00a0"}
      </p>
    </>
  );

  if (!user) {
    return (
      <section className="page share">
        {header}
        <SignInButton label={t("share.signIn")} />
      </section>
    );
  }

  const share = () => {
    if (!code.data) return;
    const url = buildInviteLink({ referralCode: code.data, referredBy: user.username, worldAppId: env.worldAppId, origin: window.location.origin, language: locale });
    // A closed share sheet is not an error worth telling about.
    wallet.share({ title: t("share.title"), text: t("share.shareText", { code: code.data }), url }).catch(() => undefined);
  };

  const refereeReward = first?.rewardForBeingReferee ?? null;
  const refereeClaimable =
    refereeReward && refereeReward.paymentType === "claimable" && !refereeReward.hasClaimed && !rewards.isClaimedOnChain(refereeReward.claimableSignature)
      ? refereeReward.claimableSignature
      : null;

  return (
    <section className="page share">
      {header}
      <CopyCode code={code.data} loading={code.isPending} failed={code.isError} />
      {!code.isError && (
        <button type="button" className="button button--primary button--block button--large" disabled={!code.data} onClick={share}>
          <ShareIcon />
          {t("share.shareButton")}
        </button>
      )}
      {!seenTerms && (
        <p className="share__terms">
          <TextWithLink
            text={t("share.terms")}
            tag="terms"
            renderLink={(label) => (
              <Link to="/terms" className="link" onClick={() => writeStored("hasSeenShareTerms", true)}>
                {label}
              </Link>
            )}
          />
        </p>
      )}

      {earnings.isError && !earnings.isFetchNextPageError && (
        <p className="share-code__error" role="alert">
          {t("share.loadError")}
        </p>
      )}
      {earnings.isPending && <div className="skeleton share__skeleton" aria-busy="true" aria-label={t("common.loading")} />}
      {first && (
        <>
          {refereeReward && refereeClaimable && (
            <RefereePanel
              referrerName={referrerName}
              amountWei={refereeReward.paymentAmountWei}
              claimable={refereeClaimable}
              claiming={rewards.claimingKey === voucherKey(refereeClaimable)}
              disabled={rewards.claimingKey !== null}
              onClaim={(claimable) => void rewards.claim(claimable, "claim")}
            />
          )}
          <dl className="share__totals">
            <div className="share__total">
              <dt>{t("share.totalEarned")}</dt>
              <dd data-testid="total-earned">{t("share.amount", { amount: formatShareAmount(first.totalOroEarnedWei, locale) })}</dd>
            </div>
            <div className="share__total">
              <dt>{t("share.usersReferred")}</dt>
              <dd data-testid="users-referred">{new Intl.NumberFormat(locale).format(first.usersReferredCount)}</dd>
            </div>
          </dl>
          <section className="share-invites" aria-labelledby="share-invites-title">
            <h2 id="share-invites-title" className="share-invites__title">
              {t("share.invites")}
            </h2>
            <InviteList
              invites={earnings.invites}
              nowMs={nowMs}
              claimingKey={rewards.claimingKey}
              isClaimedOnChain={rewards.isClaimedOnChain}
              onClaim={claimInvite}
              hasMore={earnings.hasNextPage}
              loadingMore={earnings.isFetchingNextPage}
              loadMoreFailed={earnings.isFetchNextPageError}
              onLoadMore={loadMoreInvites}
            />
          </section>
        </>
      )}
      <RefereeSuccessModal success={success} onClose={() => setSuccess(null)} />
    </section>
  );
}
