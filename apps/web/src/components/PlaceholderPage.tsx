import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The frame of a screen whose content comes with the second web issue. */
export function PlaceholderPage({ title, body, children }: { title: string; body?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1 className="page__title">{title}</h1>
      <p className="page__body">{body ?? t("pages.soon")}</p>
      {children}
    </section>
  );
}
