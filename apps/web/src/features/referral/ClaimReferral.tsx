import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Address } from "viem";
import { loadScreenStrings } from "../../i18n";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { GiftIcon } from "../../components/Icons";
import { mintRecordKey, mintRecordOf } from "../../lib/chain";
import { useServices } from "../../lib/services";
import { clearStored, useStored, writeStored } from "../../lib/storage";
import type { VerificationResult } from "../../lib/world-app/verify";
import { acceptReferral, type AcceptedReferral } from "./accept-referral";
import { referralErrorCode, referralErrorMessageKey } from "./referral-errors";
import { ReferralCodeModal } from "./ReferralCodeModal";
import { fetchOwnReferralCode, referralEligibilityKey, useReferralEligibility } from "./use-referral";
import "./referral.css";

// The referral strings live with the on-demand screens' (this module loads on demand too).
await loadScreenStrings();

type Banner = "alreadyExists" | "alreadyClaimed";
type Source = "modal" | "deepLink";

/** What the claim screen tells the referral part of it (the claim's state stays the claim feature's). */
export interface ClaimReferralProps {
  address: Address;
  verification: VerificationResult | null;
  /** Whether the claim screen shows the referral part now; it stays mounted (and keeps its banners) while hidden. */
  shown: boolean;
  /** When the last claim succeeded (ms): the answer on the referral changes with it. */
  successAt: number | null;
  /** The code modal takes its turn in the claim screen's queue of modals. */
  codeModal: { open: boolean; show: () => void; close: () => void };
}

/**
 * The referral part of the claim screen: the 'were you referred' card and its code modal, the approve button for
 * a code that came with a deep link, and the banners. Whether the user may still accept a code is the API's
 * answer (per human), never a guess here.
 */
export function ClaimReferral({ address, verification, shown, successAt, codeModal }: ClaimReferralProps) {
  const { t } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const { api, wallet, chain } = useServices();
  const queryClient = useQueryClient();
  const verified = verification !== null;
  const eligibility = useReferralEligibility(address);
  const deepLink = useStored("referralCode");
  const [code, setCode] = useState("");
  const [source, setSource] = useState<Source>("modal");
  const [accepted, setAccepted] = useState<AcceptedReferral | null>(null);
  const [banner, setBanner] = useState<Banner | null>(null);

  const accept = useMutation({
    mutationKey: ["accept-referral", address],
    mutationFn: (codeToAccept: string) =>
      acceptReferral(
        { api, wallet },
        { address, verified, code: codeToAccept, ownCode: () => fetchOwnReferralCode(queryClient, api, address) },
      ),
    onSuccess: (result) => {
      setAccepted(result);
      clearStored("referralCode");
      if (codeModal.open) codeModal.close();
      void queryClient.invalidateQueries({ queryKey: referralEligibilityKey(address) });
    },
    onError: (error) => {
      const errorCode = referralErrorCode(error);
      if (errorCode === "REFERRAL_ALREADY_EXISTS") setBanner("alreadyExists");
      else if (errorCode === "NOT_ELIGIBLE") setBanner("alreadyClaimed");
      else return;
      clearStored("referralCode");
      void queryClient.invalidateQueries({ queryKey: referralEligibilityKey(address) });
    },
  });

  const answer = eligibility.data;
  useEffect(() => {
    if (answer) writeStored("referralEligible", answer.eligible && !answer.referralApplied);
  }, [answer]);

  // A deep-link code that can no longer apply is dropped, and the banner says why.
  useEffect(() => {
    if (!answer || !deepLink) return;
    if (answer.referralApplied || answer.reason === "ALREADY_REFERRED") {
      setBanner("alreadyExists");
      clearStored("referralCode");
    } else if (!answer.eligible) {
      setBanner("alreadyClaimed");
      clearStored("referralCode");
    }
  }, [answer, deepLink]);

  // A claim changes the answer: ask again.
  useEffect(() => {
    if (successAt !== null) void queryClient.invalidateQueries({ queryKey: referralEligibilityKey(address) });
  }, [successAt, address, queryClient]);

  const applied = accepted !== null || answer?.referralApplied === true;
  // The bonus comes with the first claim: once the human has minted, the banner has said what it had to say.
  const record = verification ? mintRecordOf(verification) : null;
  const mintCount = useQuery({
    queryKey: ["referral-mint-count", mintRecordKey(record), successAt],
    enabled: applied && record !== null,
    queryFn: async () => (record === null ? 0n : (await chain.readMintData(record)).numOfMints),
  });
  const hasClaimed = successAt !== null || (mintCount.data ?? 0n) > 0n || answer?.reason === "ALREADY_CLAIMED";
  // After 'already exists' or 'already claimed' no code can apply: the card goes with the approve button.
  const open = answer !== undefined && answer.eligible && !applied && banner === null;
  const referrerName = accepted?.referrerUsername ?? answer?.referrerUsername ?? null;
  const errorText = accept.isError ? t(referralErrorMessageKey(accept.error)) : null;

  if (!shown) return null;

  const submit = (codeToAccept: string, from: Source) => {
    setSource(from);
    accept.mutate(codeToAccept);
  };

  return (
    <div className="referral">
      {applied && !hasClaimed && (
        <p className="banner banner--success" role="status">
          {referrerName ? t("referral.bonusBanner", { name: referrerName }) : t("referral.bonusBannerNoName")}
        </p>
      )}
      {banner === "alreadyExists" && (
        <p className="banner banner--info" role="status">
          {t("referral.errors.alreadyExists")}
        </p>
      )}
      {banner === "alreadyClaimed" && (
        <p className="banner banner--info" role="status">
          {t("referral.errors.alreadyClaimed")}
        </p>
      )}

      {open && deepLink && (
        <section className="card referral-card" aria-label={t("referral.deepLinkLabel")}>
          <GiftIcon size={36} className="referral-card__icon" />
          <div className="referral-card__text">
            <h2 className="referral-card__title">
              {deepLink.referredBy ? t("referral.deepLinkTitle", { name: deepLink.referredBy }) : t("referral.deepLinkTitleNoName")}
            </h2>
            <p className="referral-card__body">{t("referral.deepLinkBody", { code: deepLink.referralCode })}</p>
            {!verified && <p className="referral-card__body">{t("referral.verifyFirst")}</p>}
            {source === "deepLink" && errorText && (
              <p className="field-error" role="alert">
                {errorText}
              </p>
            )}
          </div>
          {verified && (
            <button
              type="button"
              className="button button--small"
              disabled={accept.isPending}
              aria-busy={accept.isPending && source === "deepLink"}
              onClick={() => submit(deepLink.referralCode, "deepLink")}
            >
              {accept.isPending && source === "deepLink" ? t("referral.submitting") : t("referral.approve")}
            </button>
          )}
        </section>
      )}

      {open && !deepLink && verified && (
        <section className="card referral-card">
          <GiftIcon size={36} className="referral-card__icon" />
          <div className="referral-card__text">
            <h2 className="referral-card__title">{t("referral.cardTitle")}</h2>
            <p className="referral-card__body">{t("referral.cardBody")}</p>
          </div>
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              accept.reset();
              codeModal.show();
            }}
          >
            {t("referral.enterCode")}
          </button>
        </section>
      )}

      <ReferralCodeModal
        open={codeModal.open}
        code={code}
        onCodeChange={(next) => {
          setCode(next);
          if (accept.isError) accept.reset();
        }}
        onSubmit={() => submit(code, "modal")}
        onClose={codeModal.close}
        submitting={accept.isPending && source === "modal"}
        error={source === "modal" ? errorText : null}
      />
    </div>
  );
}
