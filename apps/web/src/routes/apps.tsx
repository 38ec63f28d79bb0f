import { AppsScreen } from "../features/apps/AppsScreen";

export default function AppsRoute() {
  return <AppsScreen />;
}
