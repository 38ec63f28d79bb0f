import type { IncomingMessage, ServerResponse } from "node:http";
import { WORLD_APP_DEVICE_LANGUAGES, type OutboxAnswer } from "@oro/clients";
import type { LocalChain, OwnerTask } from "./chain.js";
import { answerCommand, type BridgeMessage, type CommandContext } from "./commands.js";
import { HttpError, readJson, send, sendJson } from "./http.js";
import { EXPIRING_CREDENTIAL_SECONDS, LONG_LIVED_CREDENTIAL_EXPIRY, findWallet } from "./humans.js";
import { installBridge } from "./ui/bridge.js";
import { simulatorPage } from "./ui/page.js";
import { simulatorScript } from "./ui/script.js";
import type { SimulatedWorldApp } from "./world-app.js";

/** Where the simulator's own page and endpoints live on its origin; the rest of the origin is the mini app. */
export const PREFIX = "/__simulator";

export interface RouteContext {
  app: SimulatedWorldApp;
  chain: LocalChain;
  /** The World ID app and action the proofs are for, and the relying party's signer. */
  world: CommandContext["world"];
  apiOrigin: string;
}

/** Answers a request under PREFIX (`path` without it): the page and its scripts, what it reads, and its controls. */
export async function answerSimulatorRoute(ctx: RouteContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const method = req.method ?? "GET";
  if (method === "GET" && (await answerRead(ctx, res, path))) return;
  // World App's username service, as MiniKit asks it (POST /api/v1/query, GET /api/v1/<username>).
  if (path === "/usernames/query" && method === "POST") return answerUsernameQuery(ctx, res, await readJson(req));
  if (path.startsWith("/usernames/") && method === "GET") return answerUsername(ctx, res, decodeURIComponent(path.slice("/usernames/".length)));
  if (method !== "POST") throw new HttpError(404, `no ${method} ${PREFIX}${path}`);
  return answerControl(ctx, res, path, await readJson(req));
}

/** The page, its scripts and what it reads; false for a path that is none of them. */
async function answerRead(ctx: RouteContext, res: ServerResponse, path: string): Promise<boolean> {
  const { app, chain } = ctx;
  switch (path) {
    case "/":
    case "":
      send(res, 200, simulatorPage(), "text/html; charset=utf-8");
      return true;
    case "/ui.js":
      send(res, 200, simulatorScript(), "text/javascript; charset=utf-8");
      return true;
    case "/bridge.js": {
      const offset = await app.clockOffsetMs();
      await app.tellWorld();
      send(res, 200, `(${installBridge.toString()})(${JSON.stringify(app.launchProperties())}, ${offset});\n`, "text/javascript; charset=utf-8");
      return true;
    }
    case "/state":
      sendJson(res, 200, await app.view());
      return true;
    case "/chain":
      sendJson(res, 200, await chain.status());
      return true;
    case "/notifications":
      await answerNotifications(ctx, res);
      return true;
    default:
      return false;
  }
}

/** The API's development outbox (World's stand-in), each reminder as World App shows it. */
async function answerNotifications({ app, apiOrigin }: RouteContext, res: ServerResponse): Promise<void> {
  const answer = await fetch(`${apiOrigin}/api/dev/notifications?limit=100`).catch((error: Error) => {
    throw new HttpError(502, `the API did not answer: ${error.message}`);
  });
  if (answer.status === 404) throw new HttpError(404, "the API has no development outbox (NOTIFICATIONS_TRANSPORT=outbox, not production)");
  const body = (await answer.json()) as Partial<OutboxAnswer>;
  if (!answer.ok || !Array.isArray(body.notifications)) return sendJson(res, answer.status, body);
  return sendJson(res, 200, { notifications: body.notifications.map((row) => app.asShown(row)) });
}

function answerUsernameQuery({ app }: RouteContext, res: ServerResponse, body: Record<string, unknown>): void {
  const list = Array.isArray(body.addresses) ? body.addresses.filter((item): item is string => typeof item === "string") : [];
  sendJson(res, 200, list.map((address) => app.usernameOf(address)));
}

function answerUsername({ app }: RouteContext, res: ServerResponse, name: string): void {
  const wallet = app.humans.flatMap((human) => human.wallets).find((candidate) => candidate.username === name);
  if (!wallet) return sendJson(res, 404, { error: "unknown username" });
  sendJson(res, 200, { address: wallet.account.address.toLowerCase(), username: wallet.username, profile_picture_url: null });
}

/** The controls of the page and the bridge's commands (POST). */
async function answerControl(ctx: RouteContext, res: ServerResponse, path: string, body: Record<string, unknown>): Promise<void> {
  const { app, chain } = ctx;
  switch (path) {
    case "/command":
      return sendJson(res, 200, await answerBridge(ctx, body));
    case "/select": {
      const walletId = typeof body.walletId === "string" ? body.walletId : "";
      if (!findWallet(app.humans, walletId)) throw new HttpError(400, `unknown wallet ${walletId}`);
      if (body.storage && typeof body.storage === "object") app.deviceStorage.set(app.activeWalletId, body.storage as Record<string, string>);
      app.activeWalletId = walletId;
      app.note(`switched to wallet ${walletId}`);
      // A different phone: no session cookie of the previous user either.
      res.setHeader("set-cookie", "oro_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
      return sendJson(res, 200, { storage: app.deviceStorage.get(walletId) ?? {} });
    }
    case "/settings":
      await applySettings(app, body);
      return sendJson(res, 200, { ok: true });
    case "/humans":
      await changeHuman(app, body);
      return sendJson(res, 200, { ok: true });
    case "/reinstall": {
      // The mini app removed and installed again: its storage (the page clears the frame's) and its cookies are gone;
      // World App itself, and so its replay guard and its sessions, stay as they were.
      app.deviceStorage.delete(app.activeWalletId);
      app.note(`mini app reinstalled on ${app.activeWalletId}'s phone (its storage cleared)`);
      res.setHeader("set-cookie", "oro_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
      return sendJson(res, 200, { ok: true });
    }
    case "/permissions/reset": {
      app.permissions.delete(app.activeWalletId);
      await app.tellWorld();
      return sendJson(res, 200, { ok: true });
    }
    case "/chain/advance": {
      const seconds = Number(body.seconds);
      if (!Number.isInteger(seconds) || seconds <= 0 || seconds > 366 * 86_400) throw new HttpError(400, "seconds must be a positive whole number");
      const status = await chain.advanceTime(seconds);
      app.advancedSeconds += seconds;
      app.note(`chain time +${seconds / 3600} h → ${status.blockTime}`);
      return sendJson(res, 200, status);
    }
    case "/owner": {
      const task = parseOwnerTask(body);
      const { hash, status } = await chain.ownerTask(task);
      app.note(`owner ${task.task}: ${hash}`);
      return sendJson(res, 200, { hash, status });
    }
    default:
      throw new HttpError(404, `no POST ${PREFIX}${path}`);
  }
}

/** A bridge message of the mini app, answered as the active wallet's World App answers it. */
async function answerBridge({ app, chain, world }: RouteContext, body: Record<string, unknown>) {
  const message = body.message as BridgeMessage | undefined;
  if (!message || typeof message.command !== "string") throw new HttpError(400, "message.command is required");
  const { human, wallet } = app.active();
  const context = { human, wallet, switches: app.switches, chain, world, permissions: app.permissions, shares: app.shares, approved: body.approved !== false };
  const outcome = await answerCommand(message, context).catch((error: Error) => ({ answer: null, summary: `${message.command}: simulator error: ${error.message}` }));
  app.note(outcome.summary);
  if (message.command === "request-permission") await app.tellWorld();
  return { answer: outcome.answer, summary: outcome.summary };
}

/** The device's settings and the panel's switches. */
async function applySettings(app: SimulatedWorldApp, body: Record<string, unknown>): Promise<void> {
  if (typeof body.language === "string") {
    if (!WORLD_APP_DEVICE_LANGUAGES.includes(body.language)) throw new HttpError(400, `unknown language ${body.language}`);
    app.deviceLanguages.set(app.activeWalletId, body.language);
    await app.tellWorld();
  }
  if (typeof body.autoApprove === "boolean") app.autoApprove = body.autoApprove;
  if (typeof body.notch === "boolean") app.notch = body.notch;
  const { switches } = app;
  if (typeof body.verificationFails === "boolean") switches.verificationFails = body.verificationFails;
  if (body.nextTransaction === "send" || body.nextTransaction === "fail" || body.nextTransaction === "reject" || body.nextTransaction === "front-run") {
    switches.nextTransaction = body.nextTransaction;
  }
  if (body.notificationAnswer === "allow" || body.notificationAnswer === "deny") switches.notificationAnswer = body.notificationAnswer;
  if (typeof body.worldId3Proofs === "boolean") switches.worldId3Proofs = body.worldId3Proofs;
}

/** A human's World ID: Orb-verified or not, a credential that expires soon or not. */
async function changeHuman(app: SimulatedWorldApp, body: Record<string, unknown>): Promise<void> {
  const human = app.humans.find((candidate) => candidate.id === body.humanId);
  if (!human) throw new HttpError(400, "unknown human");
  if (typeof body.orbVerified === "boolean") human.orbVerified = body.orbVerified;
  if (typeof body.credentialExpiresSoon === "boolean") {
    // From the chain's clock, which the simulator moves: "soon" stays soon after the chain was moved ahead.
    const now = Math.floor(Date.now() / 1000) + Math.round((await app.clockOffsetMs()) / 1000);
    human.credentialExpiresAt = body.credentialExpiresSoon ? now + EXPIRING_CREDENTIAL_SECONDS : LONG_LIVED_CREDENTIAL_EXPIRY;
    app.note(`${human.name}: World ID credential expires ${new Date(human.credentialExpiresAt * 1000).toISOString()}`);
  }
}

function parseOwnerTask(body: Record<string, unknown>): OwnerTask {
  if (body.task === "amount-per-mint" && typeof body.amount === "string" && /^\d+(\.\d{1,18})?$/.test(body.amount)) return { task: "amount-per-mint", amount: body.amount };
  if (body.task === "wait-between-mints" && typeof body.wait === "string" && body.wait.trim() !== "") return { task: "wait-between-mints", wait: body.wait };
  if (body.task === "killswitch") return { task: "killswitch" };
  if (body.task === "close-world-id-3") return { task: "close-world-id-3" };
  throw new HttpError(400, "task must be amount-per-mint (amount: decimal ORO), wait-between-mints (wait: 24h, 90m, 2d), killswitch or close-world-id-3");
}
