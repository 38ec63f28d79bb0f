export { AboutScreen } from "./AboutScreen";
