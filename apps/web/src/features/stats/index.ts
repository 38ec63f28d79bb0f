export { StatsScreen } from "./StatsScreen";
