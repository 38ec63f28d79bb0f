import { TLSSocket } from "node:tls";
import { keepAliveAgents, readAnswer, type HttpAnswer } from "../../lib/http-client.js";
import { readWorldAnswer, refuseWhatWorldRefuses, TransportError, worldRequestBody, type NotificationTransport } from "./transport.js";

/** World App's limit per request of the send-notification API. */
export const WORLD_APP_MAX_RECIPIENTS = 1_000;

export interface WorldAppTransportOptions {
  /** The developer portal, e.g. https://developer.worldcoin.org */
  apiUrl: string;
  appId: string;
  apiKey: string;
  /** The whole exchange; longer than World's own retrying (env.ts, WORLD_APP_TIMEOUT). */
  timeoutMs: number;
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
        throw new TransportError(`at most ${WORLD_APP_MAX_RECIPIENTS} addresses per request`, "defect");
      }
      const body = worldRequestBody(options.appId, recipients, notification);
      refuseWhatWorldRefuses(body);
      const payload = JSON.stringify(body);
      let response: HttpAnswer;
      try {
        response = await postBodyLast(endpoint, options.apiKey, payload, options.timeoutMs, requestStarting);
      } catch (error) {
        // World retries its own upstream send and de-duplicates nothing: a request whose body may have reached it (a
        // timeout, a reset) is never sent again, so nobody is notified twice. Only one whose body never left is retried.
        const neverLeft = error instanceof BodyNotSentError;
        throw new TransportError(
          `send-notification request failed${neverLeft ? "" : " after it may have reached World (not sent again)"}: ${(error as Error).message}`,
          neverLeft ? "not-sent" : "unknown",
        );
      }
      return readWorldAnswer(response.status, response.text, recipients);
    },
  };
}

/** The request failed before its body was written: World cannot have acted on it. */
class BodyNotSentError extends Error {
  override name = "BodyNotSentError";
}

// Kept-alive connections to the portal, as a browser would keep them.
const portalConnection = keepAliveAgents();

/**
 * POSTs `payload`, its body written only once the connection is open, the headers sent and `beforeBody` (the caller
 * recording that the request may reach World) has resolved: nothing but a database round trip, then one write, lies
 * between that record and the body leaving. A worker killed while connecting or recording leaves World a request
 * without its body, which it never acts on, and its jobs are sent again; fetch instead connected and wrote only after
 * the record, a window in which a killed worker's reminders were recorded as requested and never arrived (the likely
 * cause of a reminders bench smoke failure in CI under load).
 */
function postBodyLast(url: string, apiKey: string, payload: string, timeoutMs: number, beforeBody?: () => Promise<void>): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const { client, agent } = portalConnection(url);
    let bodySent = false;
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(bodySent ? error : new BodyNotSentError(error.message, { cause: error }));
    };
    const request = client.request(url, {
      method: "POST",
      agent,
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}`, "content-length": Buffer.byteLength(payload) },
    });
    // The whole exchange, answer included, within the timeout.
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    request.on("error", fail);
    request.on("response", (response) =>
      readAnswer(
        response,
        (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        fail,
      ),
    );
    const sendBody = () => {
      if (request.destroyed) return;
      Promise.resolve(beforeBody?.()).then(
        () => {
          if (request.destroyed) return;
          bodySent = true;
          request.end(payload);
        },
        (error: unknown) => request.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    };
    request.on("socket", (socket) => {
      // A new connection: once it is open (and its TLS set up); a kept-alive one is open already.
      if (socket.connecting) socket.once(socket instanceof TLSSocket ? "secureConnect" : "connect", sendBody);
      else sendBody();
    });
    request.flushHeaders();
  });
}
