import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Address } from "viem";
import { useServices } from "../../lib/services";
import { writeStored } from "../../lib/storage";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** The post-claim email form; once an email is submitted it never shows again. */
export function EmailForm({ address, onDone }: { address: Address; onDone: () => void }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const [email, setEmail] = useState("");
  const [invalid, setInvalid] = useState(false);
  const submit = useMutation({
    mutationFn: (value: string) => api.submitEmail(address, value),
    onSuccess: () => writeStored("emailSubmitted", true),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (!EMAIL_PATTERN.test(value)) {
      setInvalid(true);
      return;
    }
    submit.mutate(value);
  };

  if (submit.isSuccess) {
    return (
      <section className="card email-form" aria-live="polite">
        <p className="email-form__thanks">{t("email.thanks")}</p>
      </section>
    );
  }
  return (
    <form className="card email-form" onSubmit={onSubmit} noValidate>
      <h2 className="email-form__title">{t("email.title")}</h2>
      <p className="email-form__body">{t("email.body")}</p>
      <label className="visually-hidden" htmlFor="email-input">
        {t("email.label")}
      </label>
      <div className="email-form__row">
        <input
          id="email-input"
          className="input"
          type="email"
          inputMode="email"
          autoComplete="email"
          placeholder={t("email.placeholder")}
          value={email}
          aria-invalid={invalid}
          onChange={(event) => {
            setEmail(event.target.value);
            setInvalid(false);
          }}
        />
        <button type="submit" className="button button--primary" disabled={submit.isPending}>
          {submit.isPending ? t("email.submitting") : t("email.submit")}
        </button>
      </div>
      {invalid && <p className="field-error">{t("email.invalid")}</p>}
      {submit.isError && <p className="field-error">{t("common.unknownError")}</p>}
      <button type="button" className="link-button" onClick={onDone}>
        {t("email.dismiss")}
      </button>
    </form>
  );
}
