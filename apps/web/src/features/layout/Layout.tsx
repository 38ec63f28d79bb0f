import { lazy, Suspense } from "react";
import { Outlet } from "react-router";
import { loadDevWalletPicker } from "../../env";
import { Announcements } from "../announcements";
import { useServices } from "../../lib/services";
import { getDevWallet } from "../../lib/world-app/fallback";
import { ClaimProvider, useClaim } from "../claim";
import { Header } from "./Header";
import { useSendLocaleOnce } from "../locale";
import { TabBar } from "./TabBar";

const DevWalletPicker = loadDevWalletPicker ? lazy(loadDevWalletPicker) : null;

const loadPickerWallet = () => getDevWallet("picker");

function Shell() {
  const { user } = useClaim();
  const { wallet } = useServices();
  useSendLocaleOnce(user?.address ?? null);
  return (
    <div className="app">
      <Header />
      <main className="app__main">
        <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
          <Outlet />
        </Suspense>
      </main>
      {DevWalletPicker && !wallet.isInWorldApp() && (
        <Suspense fallback={null}>
          <DevWalletPicker loadWallet={loadPickerWallet} />
        </Suspense>
      )}
      <TabBar />
      <Announcements />
    </div>
  );
}

/** The one layout every route is nested in. */
export function Layout() {
  return (
    <ClaimProvider>
      <Shell />
    </ClaimProvider>
  );
}
