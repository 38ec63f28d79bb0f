import { z } from "zod";
import { refuseWhatWorldRefuses, TransportError, worldRequestBody, type DeliveryResult, type NotificationTransport } from "./transport.js";

/** World App's limit per request of the send-notification API. */
export const WORLD_APP_MAX_RECIPIENTS = 1_000;

const responseSchema = z.object({
  success: z.boolean(),
  result: z
    .array(z.object({ walletAddress: z.string(), sent: z.boolean(), reason: z.string().nullish() }))
    .optional(),
});

export interface WorldAppTransportOptions {
  /** The developer portal, e.g. https://developer.worldcoin.org */
  apiUrl: string;
  appId: string;
  apiKey: string;
  timeoutMs?: number;
}

/**
 * The developer portal's `POST /api/v2/minikit/send-notification`: app id, up to 1,000 wallet addresses,
 * the message in every language (`localisations`) and the mini-app path; it answers per address whether
 * the notification was sent and, if not, why (for example notifications not enabled by the user).
 */
export function createWorldAppTransport(options: WorldAppTransportOptions): NotificationTransport {
  const endpoint = `${options.apiUrl.replace(/\/+$/, "")}/api/v2/minikit/send-notification`;
  return {
    name: "world-app",
    maxRecipients: WORLD_APP_MAX_RECIPIENTS,
    async send(recipients, notification, requestStarting) {
      if (recipients.length > WORLD_APP_MAX_RECIPIENTS) {
        throw new TransportError(`at most ${WORLD_APP_MAX_RECIPIENTS} addresses per request`, false);
      }
      const body = worldRequestBody(options.appId, recipients, notification);
      refuseWhatWorldRefuses(body);
      const payload = JSON.stringify(body);
      await requestStarting?.();
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${options.apiKey}` },
          body: payload,
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
      } catch (error) {
        // World retries its own upstream send and de-duplicates nothing: a request that may have reached it (a
        // timeout, a reset) is never sent again, so nobody is notified twice. Only one that never left is retried.
        const code = (error as { cause?: { code?: string } }).cause?.code;
        const neverLeft = code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN";
        throw new TransportError(
          `send-notification request failed${neverLeft ? "" : " after it may have reached World (not sent again)"}: ${(error as Error).message}`,
          neverLeft,
        );
      }
      const text = await response.text();
      if (!response.ok) {
        // 429 and World's quota for unverified apps pass with time; any other 4xx is a defect of ours.
        const retryable = response.status === 429 || response.status >= 500 || text.includes("unverified_app_limit_reached");
        throw new TransportError(`send-notification answered ${response.status}: ${text.slice(0, 300)}`, retryable);
      }
      let parsed: z.output<typeof responseSchema>;
      try {
        parsed = responseSchema.parse(JSON.parse(text));
      } catch {
        throw new TransportError(`send-notification answered an unexpected body: ${text.slice(0, 300)}`, false);
      }
      if (!parsed.success) throw new TransportError(`send-notification was refused: ${text.slice(0, 300)}`, false);
      const byAddress = new Map((parsed.result ?? []).map((entry) => [entry.walletAddress.toLowerCase(), entry]));
      return recipients.map((recipient): DeliveryResult => {
        const entry = byAddress.get(recipient.address.toLowerCase());
        if (!entry) return { address: recipient.address, sent: false, reason: "no result for this address" };
        return { address: recipient.address, sent: entry.sent, reason: entry.reason ?? undefined };
      });
    },
  };
}
