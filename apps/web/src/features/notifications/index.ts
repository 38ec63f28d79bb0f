export { NotificationBell } from "./NotificationBell";
export { NotificationModal } from "./NotificationModal";
