export { AppIcon } from "./AppIcon";
export { AppsScreen } from "./AppsScreen";
