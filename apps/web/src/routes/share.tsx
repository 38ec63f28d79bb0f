import { preloadShareScreen, ShareScreen } from "../features/referral";
import { loadScreenStrings } from "../i18n";

// The screen and its strings come with it (their own chunks), before it renders.
await Promise.all([loadScreenStrings(), preloadShareScreen()]);

/** Loaded on demand: the share screen is its own chunk, outside the first load of /. */
export default function ShareRoute() {
  return <ShareScreen />;
}
