import { worldSendNotificationProblems } from "@oro/clients";
import type { Locale } from "../../lib/locales.js";
import type { Localisation } from "./messages.js";

/** One addressee of a notification: the wallet address and the language the user chose with us. */
export interface Recipient {
  jobId: string;
  address: string;
  locale: Locale;
}

export interface Notification {
  /** Every language, so the wallet can show the user's own. */
  localisations: Localisation[];
  /** The deep link into the mini app, `worldapp://mini-app?app_id=...&path=...`. */
  miniAppPath: string;
}

/** What the transport reports per address: delivered or not, and why not. */
export interface DeliveryResult {
  address: string;
  sent: boolean;
  reason?: string | undefined;
}

/** A send that failed as a whole; `retryable` when trying again later may work (a 5xx, 429, a network error). */
export class TransportError extends Error {
  override name = "TransportError";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** How reminders leave the API: World App's notification API, or the development outbox. */
export interface NotificationTransport {
  readonly name: string;
  /** The most addresses one `send` takes. */
  readonly maxRecipients: number;
  /**
   * Sends one request. `requestStarting` is awaited once the request is built and checked, right before its body
   * leaves (World's transport has the connection open and the headers sent by then): from then on it may reach World
   * (the caller records that, so a worker that dies is never resent).
   */
  send(recipients: Recipient[], notification: Notification, requestStarting?: () => Promise<void>): Promise<DeliveryResult[]>;
}

/** The request body of World's send-notification API for these recipients. */
export function worldRequestBody(appId: string, recipients: Recipient[], notification: Notification) {
  return {
    app_id: appId,
    wallet_addresses: recipients.map((recipient) => recipient.address),
    localisations: notification.localisations,
    mini_app_path: notification.miniAppPath,
  };
}

/**
 * A request World would refuse (400) is a defect of ours, never fixed by sending again: it fails as a whole, not
 * retried, with World's reasons.
 */
export function refuseWhatWorldRefuses(body: ReturnType<typeof worldRequestBody>): void {
  const problems = worldSendNotificationProblems(body);
  if (problems.length > 0) throw new TransportError(`World's send-notification would refuse this request: ${problems.join("; ")}`, false);
}

/** World App's deep link into a mini app. */
export function miniAppLink(appId: string, path: string): string {
  return `worldapp://mini-app?app_id=${encodeURIComponent(appId)}&path=${encodeURIComponent(path)}`;
}
