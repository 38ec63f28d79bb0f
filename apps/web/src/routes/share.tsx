import { ShareScreen } from "../features/referral/ShareScreen";
import { loadScreenStrings } from "../i18n";

// The screen's strings come with it (their own chunk), before it renders.
await loadScreenStrings();

/** Loaded on demand: the share screen is its own chunk, outside the first load of /. */
export default function ShareRoute() {
  return <ShareScreen />;
}
