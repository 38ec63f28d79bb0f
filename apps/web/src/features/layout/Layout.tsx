import { Suspense } from "react";
import { Outlet } from "react-router";
import { Announcements } from "../announcements";
import { useServices } from "../../lib/services";
import { devWalletPicker } from "../../lib/world-app/fallback";
import { ClaimProvider, useClaim } from "../claim";
import { Header } from "./Header";
import { useSendLocaleOnce } from "../locale";
import { TabBar } from "./TabBar";

function Shell() {
  const { user } = useClaim();
  const { wallet } = useServices();
  // Installed with the development wallet at start-up; a production build has none.
  const DevWalletPicker = devWalletPicker();
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
