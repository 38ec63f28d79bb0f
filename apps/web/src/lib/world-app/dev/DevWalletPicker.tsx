import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { clearStored } from "../../storage";
import { getDevWallet, type DevWallet } from "../fallback";

/** DEVELOPMENT ONLY: picks which local test account the development wallet signs with; switching signs out. */
export default function DevWalletPicker() {
  const { t } = useTranslation();
  const [wallet, setWallet] = useState<DevWallet | null>(null);
  const [selected, setSelected] = useState(0);
  useEffect(() => {
    getDevWallet("picker")
      .then((devWallet) => {
        setWallet(devWallet);
        setSelected(devWallet.selectedIndex());
      })
      .catch(() => setWallet(null));
  }, []);
  if (!wallet) return null;
  return (
    <label className="dev-picker">
      <span>{t("dev.wallet")}</span>
      <select
        value={selected}
        onChange={(event) => {
          const index = Number(event.target.value);
          wallet.selectAccount(index);
          setSelected(index);
          clearStored("session");
          clearStored("verification");
        }}
      >
        {wallet.accounts.map((address, index) => (
          <option key={address} value={index}>
            {t("dev.account", { index })} · {address.slice(0, 6)}…{address.slice(-4)}
          </option>
        ))}
      </select>
    </label>
  );
}
