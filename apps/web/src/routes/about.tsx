import { loadScreenStrings } from "../i18n";
import { AboutScreen } from "../features/about";

// The screen's strings come with it (their own chunk), before it renders.
await loadScreenStrings();

export default function AboutRoute() {
  return <AboutScreen />;
}
