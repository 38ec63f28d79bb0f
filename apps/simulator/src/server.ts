import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { SimulatorOptions } from "@oro/dev-stack";
import { CLAIM_ACTION, DEV_PRIVATE_KEYS, DEV_PROFILE, deployments, WORLD_APP_DEVICE_LANGUAGES } from "@oro/clients";
import { formatUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createLocalChain, type OwnerTask } from "./chain.js";
import { answerCommand, supportedCommandsOf, type BridgeMessage, type NotificationPermission, type SharedContent, type Switches } from "./commands.js";
import { EXPIRING_CREDENTIAL_SECONDS, LONG_LIVED_CREDENTIAL_EXPIRY, createHumans, findByAddress, findWallet } from "./humans.js";
import { forward, forwardUpgrade } from "./proxy.js";
import { installBridge } from "./ui/bridge.js";
import { simulatorPage } from "./ui/page.js";
import { simulatorUi } from "./ui/simulator-ui.js";

/**
 * One row of the API's development outbox (GET /api/dev/notifications): a reminder World delivered (in the text of the
 * user's World App language), or one it did not, with World's reason.
 */
interface OutboxNotification {
  address: string;
  language: string;
  title: string;
  message: string;
  miniAppPath: string;
  createdAt: string;
  sent: boolean;
  reason: string | null;
}

/** The simulator's settings are written once, in @oro/dev-stack, which starts it. */
export type { SimulatorOptions };

export interface RunningSimulator {
  /** The simulator page. */
  url: string;
  close(): Promise<void>;
}

/** The device's languages: each one World delivers notifications in, and a few it lacks (World sends English to those). */
const DEVICE_LANGUAGES = WORLD_APP_DEVICE_LANGUAGES;
const PREFIX = "/__simulator";
const MAX_BODY = 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new HttpError(413, "body too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => {
      try {
        const text = Buffer.concat(chunks).toString("utf8");
        const value: unknown = text ? JSON.parse(text) : {};
        resolve(value && typeof value === "object" ? (value as Record<string, unknown>) : {});
      } catch {
        reject(new HttpError(400, "invalid JSON"));
      }
    });
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value, (_key, item: unknown) => (typeof item === "bigint" ? item.toString() : item)), "application/json; charset=utf-8");
}

/**
 * Starts the World App simulator: its page (a phone with the mini app and the controls) at `${url}`, the mini
 * app reverse-proxied at the root of the same origin with the bridge script added to its HTML, and /api
 * forwarded to the API. Only this process holds the simulated wallets' keys.
 */
export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const miniAppOrigin = new URL(options.miniAppUrl).origin;
  const apiOrigin = new URL(options.apiUrl).origin;
  const chain = createLocalChain({ rpcUrl: options.chainRpcUrl, chainId: options.chainId });
  const byChain: Record<number, { worldId: { appId: string; action: string } } | undefined> = deployments;
  const world = {
    ...(byChain[options.chainId]?.worldId ?? { appId: DEV_PROFILE.worldAppId, action: CLAIM_ACTION }),
    rpSigner: options.worldIdRpSigner ?? privateKeyToAccount(DEV_PRIVATE_KEYS.worldIdSigner).address,
  };

  const humans = createHumans();
  let activeWalletId = humans[0]?.wallets[0]?.id ?? "";
  /** Each wallet is its own phone, set to its own language (English until chosen). */
  const deviceLanguages = new Map<string, string>();
  const languageOf = (walletId: string) => deviceLanguages.get(walletId) ?? "en";
  let autoApprove = true;
  /** A phone with a notch and a home indicator: World App reports its safe area to the mini app. */
  let notch = false;
  const switches: Switches = { verificationFails: false, nextTransaction: "send", notificationAnswer: "allow", worldId3Proofs: true };
  const permissions = new Map<string, NotificationPermission>();
  const shares: SharedContent[] = [];
  const log: { at: string; summary: string }[] = [];
  const deviceStorage = new Map<string, Record<string, string>>();
  let advancedSeconds = 0;

  function active() {
    const found = findWallet(humans, activeWalletId);
    if (!found) throw new HttpError(500, "no active wallet");
    return found;
  }

  function note(summary: string) {
    log.unshift({ at: new Date().toISOString(), summary });
    log.length = Math.min(log.length, 60);
  }

  /** World App's launch properties, as `window.WorldApp` shows them to the mini app. */
  function worldAppProperties(): Record<string, unknown> {
    const { human, wallet } = active();
    return {
      world_app_version: 4_000_000,
      device_os: "android",
      is_optional_analytics: false,
      preferred_currency: "USD",
      preferred_language: languageOf(wallet.id),
      pending_notifications: 0,
      location: "homepage",
      wallet_address: wallet.account.address,
      safe_area_insets: notch ? { top: 47, right: 0, bottom: 34, left: 0 } : { top: 0, right: 0, bottom: 0, left: 0 },
      verification_status: { is_orb_verified: human.orbVerified, is_document_verified: false, is_secure_document_verified: false },
      supported_commands: supportedCommandsOf(human.credentials),
    };
  }

  async function stateView() {
    const wallets = humans.flatMap((human) => human.wallets);
    const balances = await Promise.all(wallets.map((wallet) => chain.oroBalance(wallet.account.address).catch(() => null)));
    const oro = new Map(wallets.map((wallet, index) => [wallet.id, balances[index] ?? null]));
    return {
      activeWalletId,
      language: languageOf(activeWalletId),
      languages: DEVICE_LANGUAGES,
      autoApprove,
      notch,
      switches,
      humans: humans.map((human) => ({
        id: human.id,
        name: human.name,
        orbVerified: human.orbVerified,
        credentials: human.credentials,
        credentialExpiresSoon: human.credentialExpiresAt !== LONG_LIVED_CREDENTIAL_EXPIRY,
        wallets: human.wallets.map((wallet) => {
          const balance = oro.get(wallet.id);
          return {
            id: wallet.id,
            label: wallet.label,
            username: wallet.username,
            address: wallet.account.address,
            notifications: permissions.get(wallet.id) ?? "not-asked",
            oro: balance === null || balance === undefined ? null : formatUnits(balance, 18),
          };
        }),
      })),
      shares,
      log,
    };
  }

  /**
   * How far the chain's clock is ahead of this machine's: what this simulator advanced, or what the latest block
   * shows if the chain was moved otherwise (the larger). The phone's clock is moved by as much.
   */
  async function clockOffsetMs(): Promise<number> {
    const latest = await chain.publicClient.getBlock({ blockTag: "latest" }).catch(() => null);
    const fromBlock = latest ? Number(latest.timestamp) * 1000 - Date.now() : 0;
    return Math.max(0, advancedSeconds * 1000, fromBlock);
  }

  /**
   * A reminder as World App shows it to its wallet: `${username}` in the title and message becomes the wallet's
   * username (World App fills it in; an address World App does not know keeps the placeholder).
   */
  function asWorldAppShowsIt(row: OutboxNotification) {
    const username = findByAddress(humans, row.address)?.username ?? null;
    const fill = (text: string) => (username === null ? text : text.split("${username}").join(username));
    // One World did not deliver shows nothing on the phone: the list names World's reason instead.
    return { ...row, username, shown: row.sent ? { title: fill(row.title), message: fill(row.message) } : null };
  }

  /**
   * World knows each user's World App language and whether they allowed the app's notifications; the API's
   * development outbox stands in for World, so it is told (each wallet is its own phone, with its own language). Sent
   * when either changes and at each launch of the mini app (an API restarted since has forgotten).
   */
  async function tellWorld(): Promise<void> {
    const users = humans.flatMap((human) =>
      human.wallets.map((wallet) => ({ address: wallet.account.address.toLowerCase(), language: languageOf(wallet.id), notifications: permissions.get(wallet.id) === "granted" })),
    );
    const answer = await fetch(`${apiOrigin}/api/dev/world-app`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ users }) }).catch(
      (error: Error) => error,
    );
    if (answer instanceof Error || !answer.ok) note(`World's stand-in (the API's outbox) not told the devices: ${answer instanceof Error ? answer.message : `HTTP ${answer.status}`}`);
  }

  function usernameAnswer(address: string) {
    const wallet = findByAddress(humans, address);
    return { address: address.toLowerCase(), username: wallet?.username ?? null, profile_picture_url: null };
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const method = req.method ?? "GET";
    if (method === "GET" && (path === "/" || path === "")) return send(res, 200, simulatorPage(), "text/html; charset=utf-8");
    if (method === "GET" && path === "/ui.js") return send(res, 200, `(${simulatorUi.toString()})();\n`, "text/javascript; charset=utf-8");
    if (method === "GET" && path === "/bridge.js") {
      const offset = await clockOffsetMs();
      await tellWorld();
      return send(res, 200, `(${installBridge.toString()})(${JSON.stringify(worldAppProperties())}, ${offset});\n`, "text/javascript; charset=utf-8");
    }
    if (method === "GET" && path === "/state") return sendJson(res, 200, await stateView());
    if (method === "GET" && path === "/chain") return sendJson(res, 200, await chain.status());
    if (method === "GET" && path === "/notifications") {
      const answer = await fetch(`${apiOrigin}/api/dev/notifications?limit=100`).catch((error: Error) => {
        throw new HttpError(502, `the API did not answer: ${error.message}`);
      });
      if (answer.status === 404) throw new HttpError(404, "the API has no development outbox (NOTIFICATIONS_TRANSPORT=outbox, not production)");
      const body = (await answer.json()) as { notifications?: OutboxNotification[] };
      if (!answer.ok || !Array.isArray(body.notifications)) return sendJson(res, answer.status, body);
      return sendJson(res, 200, { notifications: body.notifications.map(asWorldAppShowsIt) });
    }
    // World App's username service, as MiniKit asks it (POST /api/v1/query, GET /api/v1/<username>).
    if (path === "/usernames/query" && method === "POST") {
      const body = await readJson(req);
      const list = Array.isArray(body.addresses) ? body.addresses.filter((item): item is string => typeof item === "string") : [];
      return sendJson(res, 200, list.map(usernameAnswer));
    }
    if (path.startsWith("/usernames/") && method === "GET") {
      const name = decodeURIComponent(path.slice("/usernames/".length));
      const wallet = humans.flatMap((human) => human.wallets).find((candidate) => candidate.username === name);
      if (!wallet) return sendJson(res, 404, { error: "unknown username" });
      return sendJson(res, 200, { address: wallet.account.address.toLowerCase(), username: wallet.username, profile_picture_url: null });
    }
    if (method !== "POST") throw new HttpError(404, `no ${method} ${PREFIX}${path}`);
    const body = await readJson(req);
    switch (path) {
      case "/command": {
        const message = body.message as BridgeMessage | undefined;
        if (!message || typeof message.command !== "string") throw new HttpError(400, "message.command is required");
        const { human, wallet } = active();
        const outcome = await answerCommand(message, { human, wallet, switches, chain, world, permissions, shares, approved: body.approved !== false }).catch(
          (error: Error) => ({ answer: null, summary: `${message.command}: simulator error: ${error.message}` }),
        );
        note(outcome.summary);
        if (message.command === "request-permission") await tellWorld();
        return sendJson(res, 200, { answer: outcome.answer, summary: outcome.summary });
      }
      case "/select": {
        const walletId = typeof body.walletId === "string" ? body.walletId : "";
        if (!findWallet(humans, walletId)) throw new HttpError(400, `unknown wallet ${walletId}`);
        if (body.storage && typeof body.storage === "object") deviceStorage.set(activeWalletId, body.storage as Record<string, string>);
        activeWalletId = walletId;
        note(`switched to wallet ${walletId}`);
        // A different phone: no session cookie of the previous user either.
        res.setHeader("set-cookie", "oro_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
        return sendJson(res, 200, { storage: deviceStorage.get(walletId) ?? {} });
      }
      case "/settings": {
        if (typeof body.language === "string") {
          if (!DEVICE_LANGUAGES.includes(body.language)) throw new HttpError(400, `unknown language ${body.language}`);
          deviceLanguages.set(activeWalletId, body.language);
          await tellWorld();
        }
        if (typeof body.autoApprove === "boolean") autoApprove = body.autoApprove;
        if (typeof body.notch === "boolean") notch = body.notch;
        if (typeof body.verificationFails === "boolean") switches.verificationFails = body.verificationFails;
        if (body.nextTransaction === "send" || body.nextTransaction === "fail" || body.nextTransaction === "reject" || body.nextTransaction === "front-run") {
          switches.nextTransaction = body.nextTransaction;
        }
        if (body.notificationAnswer === "allow" || body.notificationAnswer === "deny") switches.notificationAnswer = body.notificationAnswer;
        if (typeof body.worldId3Proofs === "boolean") switches.worldId3Proofs = body.worldId3Proofs;
        return sendJson(res, 200, { ok: true });
      }
      case "/humans": {
        const human = humans.find((candidate) => candidate.id === body.humanId);
        if (!human) throw new HttpError(400, "unknown human");
        if (typeof body.orbVerified === "boolean") human.orbVerified = body.orbVerified;
        if (typeof body.credentialExpiresSoon === "boolean") {
          // From the chain's clock, which the simulator moves: "soon" stays soon after the chain was moved ahead.
          const now = Math.floor(Date.now() / 1000) + Math.round((await clockOffsetMs()) / 1000);
          human.credentialExpiresAt = body.credentialExpiresSoon ? now + EXPIRING_CREDENTIAL_SECONDS : LONG_LIVED_CREDENTIAL_EXPIRY;
          note(`${human.name}: World ID credential expires ${new Date(human.credentialExpiresAt * 1000).toISOString()}`);
        }
        return sendJson(res, 200, { ok: true });
      }
      case "/reinstall": {
        // The mini app removed and installed again: its storage (the page clears the frame's) and its cookies are gone;
        // World App itself, and so its replay guard and its sessions, stay as they were.
        deviceStorage.delete(activeWalletId);
        note(`mini app reinstalled on ${activeWalletId}'s phone (its storage cleared)`);
        res.setHeader("set-cookie", "oro_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
        return sendJson(res, 200, { ok: true });
      }
      case "/permissions/reset": {
        permissions.delete(activeWalletId);
        await tellWorld();
        return sendJson(res, 200, { ok: true });
      }
      case "/chain/advance": {
        const seconds = Number(body.seconds);
        if (!Number.isInteger(seconds) || seconds <= 0 || seconds > 366 * 86_400) throw new HttpError(400, "seconds must be a positive whole number");
        const status = await chain.advanceTime(seconds);
        advancedSeconds += seconds;
        note(`chain time +${seconds / 3600} h → ${status.blockTime}`);
        return sendJson(res, 200, status);
      }
      case "/owner": {
        const task = parseOwnerTask(body);
        const { hash, status } = await chain.ownerTask(task);
        note(`owner ${task.task}: ${hash}`);
        return sendJson(res, 200, { hash, status });
      }
      default:
        throw new HttpError(404, `no POST ${PREFIX}${path}`);
    }
  }

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator.local");
    if (url.pathname === PREFIX || url.pathname.startsWith(`${PREFIX}/`)) {
      api(req, res, url.pathname.slice(PREFIX.length)).catch((error: unknown) => {
        const status = error instanceof HttpError ? error.status : 500;
        if (!res.headersSent) sendJson(res, status, { error: error instanceof Error ? error.message : String(error) });
      });
      return;
    }
    // A person opening the bare origin gets the simulator; the phone's frame gets the mini app.
    if (url.pathname === "/" && req.headers["sec-fetch-dest"] === "document") {
      res.writeHead(302, { location: `${PREFIX}/${url.search}` });
      res.end();
      return;
    }
    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
      forward(req, res, apiOrigin, { inject: false });
      return;
    }
    forward(req, res, miniAppOrigin, { inject: true });
  });
  server.on("upgrade", (req, socket, head) => forwardUpgrade(req, socket, head, miniAppOrigin, sockets));
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host === "0.0.0.0" ? "127.0.0.1" : options.host;
  return {
    url: `http://${host}:${port}${PREFIX}/`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function parseOwnerTask(body: Record<string, unknown>): OwnerTask {
  if (body.task === "amount-per-mint" && typeof body.amount === "string" && /^\d+(\.\d{1,18})?$/.test(body.amount)) return { task: "amount-per-mint", amount: body.amount };
  if (body.task === "wait-between-mints" && typeof body.wait === "string" && body.wait.trim() !== "") return { task: "wait-between-mints", wait: body.wait };
  if (body.task === "killswitch") return { task: "killswitch" };
  if (body.task === "close-world-id-3") return { task: "close-world-id-3" };
  throw new HttpError(400, "task must be amount-per-mint (amount: decimal ORO), wait-between-mints (wait: 24h, 90m, 2d), killswitch or close-world-id-3");
}
