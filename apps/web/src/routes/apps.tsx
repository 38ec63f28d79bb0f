import { loadScreenStrings } from "../i18n";
import { AppsScreen } from "../features/apps";

// The screen's strings come with it (their own chunk), before it renders.
await loadScreenStrings();

export default function AppsRoute() {
  return <AppsScreen />;
}
