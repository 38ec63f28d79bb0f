import { loadScreenStrings } from "../i18n";
import { StatsScreen } from "../features/stats";

// The screen's strings come with it (their own chunk), before it renders.
await loadScreenStrings();

export default function StatsRoute() {
  return <StatsScreen />;
}
