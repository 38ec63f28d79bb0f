import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { SimulatorOptions } from "@oro/dev-stack";
import { CLAIM_ACTION, DEV_PRIVATE_KEYS, DEV_PROFILE, deployments } from "@oro/clients";
import { privateKeyToAccount } from "viem/accounts";
import { createLocalChain } from "./chain.js";
import { HttpError, sendJson } from "./http.js";
import { forward, forwardUpgrade } from "./proxy.js";
import { answerSimulatorRoute, PREFIX, type RouteContext } from "./routes.js";
import { SimulatedWorldApp } from "./world-app.js";

/** The simulator's settings are written once, in @oro/dev-stack, which starts it. */
export type { SimulatorOptions };

export interface RunningSimulator {
  /** The simulator page. */
  url: string;
  close(): Promise<void>;
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
  const routes: RouteContext = { app: new SimulatedWorldApp(chain, apiOrigin), chain, world, apiOrigin };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator.local");
    if (url.pathname === PREFIX || url.pathname.startsWith(`${PREFIX}/`)) {
      answerSimulatorRoute(routes, req, res, url.pathname.slice(PREFIX.length)).catch((error: unknown) => {
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
