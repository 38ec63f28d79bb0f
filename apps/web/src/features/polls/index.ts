export { PollsScreen } from "./PollsScreen";
