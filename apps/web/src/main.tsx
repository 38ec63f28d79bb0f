import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { captureDeepLinkReferral } from "./features/referral/deep-link";
import { initI18n } from "./i18n";
import { createDefaultServices } from "./lib/default-services";
import { createQueryClient } from "./lib/query-client";
import { applySafeAreaInsets, installDevelopmentWallet, installMiniKit } from "./lib/world-app/install";

installMiniKit();
installDevelopmentWallet();
applySafeAreaInsets();
captureDeepLinkReferral(window.location.search);

const root = document.getElementById("root");
if (root) {
  const i18n = await initI18n();
  createRoot(root).render(
    <StrictMode>
      <App services={createDefaultServices()} queryClient={createQueryClient()} i18n={i18n} />
    </StrictMode>,
  );
}
