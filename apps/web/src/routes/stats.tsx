import { StatsScreen } from "../features/stats/StatsScreen";

export default function StatsRoute() {
  return <StatsScreen />;
}
