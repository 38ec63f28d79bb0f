import { z } from "zod";
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

/**
 * What a send that failed as a whole proves, and so what becomes of its reminders:
 * - `not-sent`: nothing reached World (the body never left, a 429 from something in between): sent again later;
 * - `quota`: World refused it under the unverified app's quota (nothing sent): sent once the window allows;
 * - `refused`: World refused it otherwise (nothing sent): sending stops, an operator must act (`code` says why);
 * - `unknown`: the body left and World answered a 5xx, or nothing, or nothing readable: World may have delivered it
 *   (it retries its upstream for minutes and de-duplicates nothing), so it is never sent again;
 * - `defect`: a request World would refuse by its rules, never sent: a defect of ours.
 */
export type SendFailure = "not-sent" | "quota" | "refused" | "unknown" | "defect";

export class TransportError extends Error {
  override name = "TransportError";
  constructor(
    message: string,
    readonly failure: SendFailure,
    /** World's code for a refusal (`api_key_inactive`, `not_allowed`, …). */
    readonly code?: string,
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
  if (problems.length > 0) throw new TransportError(`World's send-notification would refuse this request: ${problems.join("; ")}`, "defect");
}

/** World App's deep link into a mini app. */
export function miniAppLink(appId: string, path: string): string {
  return `worldapp://mini-app?app_id=${encodeURIComponent(appId)}&path=${encodeURIComponent(path)}`;
}

const answerSchema = z.object({
  success: z.boolean(),
  result: z.array(z.object({ walletAddress: z.string(), sent: z.boolean(), reason: z.string().nullish() })).optional(),
});

/** World's code in a refusal's body (`{ code, detail, attribute }`), if it has one. */
function refusalCode(text: string): string | undefined {
  try {
    const code: unknown = (JSON.parse(text) as { code?: unknown } | null)?.code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What World's answer to a request whose body left means for each recipient, read as its route writes it
 * (developer-portal send-notification): a result per address on success; otherwise a TransportError saying what the
 * answer proves (see SendFailure). Both transports read it so: the world-app transport from the portal, the
 * development outbox from its stand-in.
 */
export function readWorldAnswer(status: number, text: string, recipients: Recipient[]): DeliveryResult[] {
  const quoted = text.slice(0, 300);
  if (status >= 200 && status < 300) {
    let parsed: z.output<typeof answerSchema>;
    try {
      parsed = answerSchema.parse(JSON.parse(text));
    } catch {
      throw new TransportError(`send-notification answered ${status} with a body that says nothing of what was sent (not sent again): ${quoted}`, "unknown");
    }
    if (!parsed.success) throw new TransportError(`send-notification answered ${status} without success (not sent again): ${quoted}`, "unknown");
    const byAddress = new Map((parsed.result ?? []).map((entry) => [entry.walletAddress.toLowerCase(), entry]));
    return recipients.map((recipient): DeliveryResult => {
      const entry = byAddress.get(recipient.address.toLowerCase());
      if (!entry) return { address: recipient.address, sent: false, reason: "World's answer has no result for this address" };
      return { address: recipient.address, sent: entry.sent, reason: entry.reason ?? undefined };
    });
  }
  // World answers 500 when its upstream throttled or never answered, after retrying it with its own key for minutes:
  // the upstream may have sent.
  if (status >= 500) throw new TransportError(`send-notification answered ${status} (World may have sent it: not sent again): ${quoted}`, "unknown");
  // World turns its upstream's 429 into a 500: a 429 comes from something in between that refused the request.
  if (status === 429) throw new TransportError(`send-notification answered 429 before World took it: ${quoted}`, "not-sent");
  const code = refusalCode(text) ?? `http_${status}`;
  if (code === "unverified_app_limit_reached") throw new TransportError(`World's quota for unverified apps is used up for now: ${quoted}`, "quota", code);
  throw new TransportError(`World refused the request with ${status} ${code}: ${quoted}`, "refused", code);
}
