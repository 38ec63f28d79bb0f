import { lazy, Suspense } from "react";
import { Outlet } from "react-router";
import { loadDevWalletPicker } from "../../env";
import { Announcements } from "../announcements/Announcements";
import { useServices } from "../../lib/services";
import { ClaimProvider, useClaim } from "../claim/claim-context";
import { Header } from "../header/Header";
import { useSendLocaleOnce } from "../locale/use-send-locale-once";
import { TabBar } from "./TabBar";

const DevWalletPicker = loadDevWalletPicker ? lazy(loadDevWalletPicker) : null;

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
          <DevWalletPicker />
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
