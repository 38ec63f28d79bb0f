import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createWorldRoute, usualWorldApp, worldApiKey } from "../../src/services/notifications/world-route.js";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface PortalRequest {
  authorization: string | undefined;
  body: { app_id: string; wallet_addresses: string[]; localisations: { language: string; title: string; message: string }[]; mini_app_path: string };
}

/**
 * A stand-in for World's developer portal (POST /api/v2/minikit/send-notification), played by World's route as the
 * stand-ins play it (world-route.ts), with what the tests make it do: fail, hang, answer late or only when let.
 */
export interface WorldPortal {
  url: string;
  appId: string;
  apiKey: string;
  route: ReturnType<typeof createWorldRoute>;
  /** The requests whose bodies reached the portal, in order. */
  requests: PortalRequest[];
  /** Requests whose headers reached the portal, bodies or not. */
  headersSeen: number;
  /** Addresses whose owner has not enabled notifications for the app. */
  disabled: Set<string>;
  failWith: number | undefined;
  failCode: string;
  /** The portal takes the request and never answers (World then retries its own send: it may arrive). */
  hang: boolean;
  /** The portal answers this late (World answers only once its own retries are over: up to minutes). */
  answerAfterMs: number;
  /** Requests for these addresses are answered only once `heldAnswer` resolves (World still retrying its own send). */
  holdAnswerFor: Set<string>;
  heldAnswer: Promise<void>;
  /** Before each test: no request seen, no failure set. */
  reset(): void;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise<string>((resolve) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => resolve(text));
  });
}

/**
 * The test file's portal: listening before its tests (a test app registered after it can send to it), reset before
 * each, closed after them.
 */
export function portalForFile(): WorldPortal {
  const appId = "app_0123456789abcdef";
  const apiKey = worldApiKey("key_test", "secret");
  // The portal's request and answer shapes: POST /api/v2/minikit/send-notification with a bearer API key,
  // at most 1,000 wallet_addresses, answering { success, status, result: [{ walletAddress, sent, reason? }] }.
  const server = createServer((request, response) => {
    portal.headersSeen += 1;
    void readBody(request).then((text) => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (request.method !== "POST" || request.url !== "/api/v2/minikit/send-notification") return reply(404, { code: "not_found" });
      const body = JSON.parse(text) as PortalRequest["body"];
      portal.requests.push({ authorization: request.headers.authorization, body });
      const answer = () => {
        if (portal.failWith) return reply(portal.failWith, { code: portal.failCode });
        const world = portal.route.answer(request.headers.authorization, text);
        return reply(world.status, world.body);
      };
      if (portal.hang) return;
      if (body.wallet_addresses.some((address) => portal.holdAnswerFor.has(address))) return void portal.heldAnswer.then(answer);
      if (portal.answerAfterMs > 0) setTimeout(answer, portal.answerAfterMs);
      else answer();
    });
  });
  const portal: WorldPortal = {
    get url() {
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    appId,
    apiKey,
    requests: [],
    headersSeen: 0,
    disabled: new Set(),
    failWith: undefined,
    failCode: "failure",
    hang: false,
    answerAfterMs: 0,
    holdAnswerFor: new Set(),
    heldAnswer: Promise.resolve(),
    route: createWorldRoute({
      app: usualWorldApp(appId, apiKey),
      deviceOf: (address) => ({ language: "en", notifications: !portal.disabled.has(address) }),
    }),
    reset() {
      portal.requests.length = 0;
      portal.failWith = undefined;
    },
  };
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)));
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => portal.reset());
  return portal;
}

/** The API's settings to send through the portal with World App's transport. */
export function portalEnv(portal: WorldPortal, env: Record<string, string>): Record<string, string> {
  return {
    ...env,
    NOTIFICATIONS_TRANSPORT: "world-app",
    WORLD_APP_ID: portal.appId,
    WORLD_APP_API_KEY: portal.apiKey,
    WORLD_APP_API_URL: portal.url,
    NOTIFICATION_MINI_APP_PATH: "/?from=reminder",
  };
}
