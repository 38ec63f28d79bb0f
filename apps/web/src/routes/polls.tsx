import { PollsScreen } from "../features/polls/PollsScreen";

export default function PollsRoute() {
  return <PollsScreen />;
}
