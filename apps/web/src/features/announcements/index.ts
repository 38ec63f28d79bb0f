export { Announcements } from "./Announcements";
