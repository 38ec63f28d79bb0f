import { loadScreenStrings } from "../i18n";
import { PollsScreen } from "../features/polls";

// The screen's strings come with it (their own chunk), before it renders.
await loadScreenStrings();

export default function PollsRoute() {
  return <PollsScreen />;
}
