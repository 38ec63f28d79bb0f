import { useTranslation } from "react-i18next";
import { CoinIcon } from "../../components/CoinIcon";
import { env } from "../../env";
import { formatPercentChange, formatUsd } from "../../lib/format";
import { useServices } from "../../lib/services";
import { useTokenPrice } from "./use-token-price";

/** ORO's price and 24 h change with a swap button; it keeps its height while loading, so nothing jumps. */
export function PriceCard() {
  const { t, i18n } = useTranslation();
  const { wallet } = useServices();
  const { price, loading } = useTokenPrice();
  const locale = i18n.resolvedLanguage ?? "en";
  const change = price?.percentChange24hr ?? 0;
  return (
    <section className="price-card" aria-label={t("price.title")}>
      <CoinIcon size={40} />
      <div className="price-card__text">
        <span className="price-card__title">{t("price.title")}</span>
        {loading ? (
          <span className="skeleton skeleton--line" />
        ) : price ? (
          <>
            <span className="price-card__value">{formatUsd(price.priceUsd, locale)}</span>
            <span className={`price-card__change ${change >= 0 ? "is-up" : "is-down"}`}>
              {t("price.change", { value: formatPercentChange(change, locale) })}
            </span>
          </>
        ) : (
          <span className="price-card__value is-muted">{t("price.unavailable")}</span>
        )}
      </div>
      <button type="button" className="button button--small" onClick={() => wallet.openUrl(env.swapAppUrl)}>
        {t("price.swap")}
      </button>
    </section>
  );
}
