import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { CoinIcon } from "../../components/CoinIcon";
import { PendingButton } from "../../components/PendingButton";
import { TextWithLink } from "../../components/TextWithLink";
import { env } from "../../env";
import { formatClaimAmount } from "../../lib/format";
import { useServices } from "../../lib/services";
import { NotificationModal } from "../notifications";
import { SignInButton } from "../session";
import { ChainTroubleNotice, ClaimIssuesBanner } from "./ChainTrouble";
import { useClaim } from "./claim-context";
import { CoinRain, EmailForm } from "../after-claim";
import { Countdown } from "./Countdown";
import { PriceCard } from "../price";
import { SlideToClaim } from "./SlideToClaim";
import { ClaimReferral } from "../referral";
import { SwapRewardModal } from "../rewards";
import { VerifyInfoModal } from "./VerifyInfoModal";

// What shows only after something happened (a refused claim, a World App that can move) loads then.
const ClaimRefusalNotice = lazy(() => import("./ClaimRefusalNotice").then((module) => ({ default: module.ClaimRefusalNotice })));
const MoveToWorldId4Card = lazy(() => import("./MoveToWorldId4Card").then((module) => ({ default: module.MoveToWorldId4Card })));

/** The claim screen: one of six states, plus the after-claim extras and the modals. */
export function ClaimScreen() {
  const { t, i18n } = useTranslation();
  const claim = useClaim();
  const locale = i18n.resolvedLanguage ?? "en";
  const address = claim.user?.address ?? null;
  const { wallet } = useServices();
  const verification = claim.verification;
  const offerMove =
    address !== null && verification?.version === "3.0" && !claim.worldId3Closed && (claim.view === "ready" || claim.view === "notReady") && wallet.worldId4Available();

  return (
    <div className={`claim claim--${claim.view}`} data-view={claim.view}>
      {(claim.chainTrouble || env.claimIssuesBanner) && <ClaimIssuesBanner />}

      {claim.view === "signedOut" && (
        <section className="claim__hero">
          <CoinIcon size={112} className="claim__coin claim__coin--float" />
          <h1 className="claim__title">{t("claim.heading")}</h1>
          <p className="claim__tagline">{t("claim.tagline")}</p>
          <SignInButton large />
          <p className="claim__legal">
            <TextWithLink
              text={t("claim.legal")}
              tag="terms"
              renderLink={(label) => (
                <Link to="/terms" className="link">
                  {label}
                </Link>
              )}
            />
          </p>
        </section>
      )}

      {claim.view === "notVerified" && (
        <section className="claim__hero">
          <CoinIcon size={96} className="claim__coin" />
          <h1 className="claim__title">{t("claim.heading")}</h1>
          <p className="claim__tagline">{t("claim.verifyToClaim")}</p>
          <PendingButton large label={t("claim.verify")} pendingLabel={t("claim.verifying")} pending={claim.verifying} onClick={claim.verify} />
          <button type="button" className="link-button" onClick={() => claim.modals.open("verifyInfo")}>
            {t("claim.notVerified")}
          </button>
          {claim.claimRefusal && (
            <Suspense fallback={null}>
              <ClaimRefusalNotice refusal={claim.claimRefusal} />
            </Suspense>
          )}
        </section>
      )}

      {claim.view === "ready" && (
        <section className="claim__hero">
          <CoinIcon size={128} className="claim__coin claim__coin--glow" />
          <h1 className="claim__title">{t("claim.heading")}</h1>
          <SlideToClaim
            label={t("claim.slide")}
            ariaLabel={t("claim.slideLabel")}
            disabled={claim.phase !== "idle" || !claim.user || !claim.verification || !claim.canMint}
            onComplete={() => void claim.claim()}
            resetSignal={claim.failedClaims}
          />
          {claim.claimRefusal && (
            <Suspense fallback={null}>
              <ClaimRefusalNotice refusal={claim.claimRefusal} />
            </Suspense>
          )}
          {claim.chainTrouble && !claim.claimRefusal && <ChainTroubleNotice />}
        </section>
      )}

      {claim.view === "notReady" && (
        <section className="claim__hero">
          <CoinIcon size={96} className="claim__coin claim__coin--dim" />
          <Countdown nextMintAt={claim.readiness.nextMintAt} nowSeconds={claim.readiness.nowSeconds} />
          {claim.claimRefusal && (
            <Suspense fallback={null}>
              <ClaimRefusalNotice refusal={claim.claimRefusal} />
            </Suspense>
          )}
          {claim.chainTrouble && !claim.claimRefusal && <ChainTroubleNotice />}
          <button type="button" className="link-button" onClick={claim.readiness.refresh}>
            {t("claim.refresh")}
          </button>
          <PriceCard />
        </section>
      )}

      {claim.view === "claiming" && (
        <section className="claim__hero" aria-live="polite">
          <CoinIcon size={128} className="claim__coin claim__coin--spin" />
          <h1 className="claim__title">{t("claim.claiming")}</h1>
          <p className="claim__tagline">{t("claim.claimingHint")}</p>
        </section>
      )}

      {claim.view === "success" && (
        <section className="claim__hero" aria-live="polite">
          <CoinIcon size={112} className="claim__coin claim__coin--pop" />
          <h1 className="claim__title claim__title--amount">
            {t("claim.successTitle", { amount: claim.claimedWei === null ? "…" : formatClaimAmount(claim.claimedWei, locale) })}
          </h1>
          <p className="claim__tagline">{t("claim.successSubtitle")}</p>
          <PriceCard />
          <p className="claim__again">{t("claim.claimAgain")}</p>
        </section>
      )}

      {offerMove && (
        <Suspense fallback={null}>
          <MoveToWorldId4Card address={address} pending={claim.pendingMove} />
        </Suspense>
      )}

      {address && (
        <Suspense fallback={null}>
          <ClaimReferral
            address={address}
            verification={verification}
            shown={claim.view === "notVerified" || claim.view === "ready" || claim.view === "notReady"}
            successAt={claim.successAt}
            codeModal={{ open: claim.modals.active === "referralCode", show: () => claim.modals.open("referralCode"), close: claim.modals.close }}
          />
        </Suspense>
      )}

      {claim.showEmailForm && address && <EmailForm address={address} onDone={claim.dismissEmailForm} />}

      <CoinRain startedAt={claim.successAt} />
      <VerifyInfoModal open={claim.modals.active === "verifyInfo"} onClose={claim.modals.close} failure={claim.verifyFailure} />
      <NotificationModal open={claim.modals.active === "notifications"} onClose={claim.modals.close} address={address} />
      <SwapRewardModal open={claim.modals.active === "swapReward"} onClose={claim.modals.close} address={address} />
    </div>
  );
}
