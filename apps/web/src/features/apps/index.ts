export { AppIcon } from "./AppIcon";
