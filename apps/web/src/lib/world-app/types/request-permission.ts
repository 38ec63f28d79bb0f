/** What asking for the notification permission led to. */
export type NotificationPermissionOutcome = "granted" | "already_granted" | "already_requested" | "denied";
