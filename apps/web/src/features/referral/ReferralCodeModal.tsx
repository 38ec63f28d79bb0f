import { REFERRAL_CODE_LENGTH } from "@oro/clients";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { SCREEN_NAMESPACES } from "../../i18n/screens";
import { Modal } from "../../components/Modal";
import { isCompleteReferralCode, normaliseReferralCode } from "./accept-referral";

interface ReferralCodeModalProps {
  open: boolean;
  code: string;
  onCodeChange: (code: string) => void;
  onSubmit: () => void;
  onClose: () => void;
  submitting: boolean;
  /** The translated error text, or null. */
  error: string | null;
}

/** The invite-code modal: 8 characters shown upper case, a paste button, submit at exactly 8 characters. */
export function ReferralCodeModal({ open, code, onCodeChange, onSubmit, onClose, submitting, error }: ReferralCodeModalProps) {
  const { t } = useTranslation(SCREEN_NAMESPACES, { nsMode: "fallback" });
  const inputId = useId();
  const errorId = useId();

  const paste = async () => {
    try {
      const text = await navigator.clipboard.readText();
      onCodeChange(normaliseReferralCode(text));
    } catch {
      // Clipboard refused or unavailable: the user types the code instead.
    }
  };

  return (
    <Modal open={open} onClose={onClose} title={t("referral.modalTitle")}>
      <form
        className="referral-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (isCompleteReferralCode(code) && !submitting) onSubmit();
        }}
      >
        <p className="modal__body">{t("referral.modalBody")}</p>
        <label className="visually-hidden" htmlFor={inputId}>
          {t("referral.codeLabel")}
        </label>
        <div className="referral-form__row">
          <input
            id={inputId}
            className="input referral-form__input"
            value={code}
            onChange={(event) => onCodeChange(normaliseReferralCode(event.target.value))}
            maxLength={REFERRAL_CODE_LENGTH}
            autoCapitalize="characters"
            autoComplete="off"
            autoCorrect="off"
            spellCheck={false}
            placeholder="ABCD2345"
            aria-invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
          />
          <button type="button" className="button button--ghost referral-form__paste" onClick={() => void paste()}>
            {t("referral.paste")}
          </button>
        </div>
        {error && (
          <p id={errorId} className="field-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--primary button--block" disabled={!isCompleteReferralCode(code) || submitting} aria-busy={submitting}>
          {submitting ? t("referral.submitting") : t("referral.submit")}
        </button>
        <button type="button" className="link-button" onClick={onClose}>
          {t("referral.continueWithout")}
        </button>
      </form>
    </Modal>
  );
}
