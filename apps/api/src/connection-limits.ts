import { createServer, type RequestListener, type Server } from "node:http";
import type { Socket } from "node:net";

/** How long a client may take to send a whole request, and how many connections one address may hold open. */
export interface ConnectionLimits {
  /** Headers and body must arrive within this; a client that stalls mid-request is cut off (slowloris). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (Caddy reuses its own well within it). */
  idleTimeoutMs: number;
  /** Open connections one client address may hold; 0 = no limit (behind a proxy every connection is the proxy's). */
  perAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { requestTimeoutMs: 10_000, idleTimeoutMs: 75_000, perAddress: 256 };

/** The HTTP server with the limits set (Fastify's own options cannot set Node's headers timeout or its sweep). */
export function createHttpServer(limits: ConnectionLimits, handler: RequestListener): Server {
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.requestTimeoutMs,
      // Node enforces the request timeout in a periodic sweep: sweep often enough that the bound is the bound.
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.requestTimeoutMs / 4))),
      // Above Caddy's idle time for upstream connections, so the proxy closes first.
      keepAliveTimeout: 72_000,
    },
    handler,
  );
  server.setTimeout(limits.idleTimeoutMs);
  return server;
}

/**
 * Refuses a new connection from an address that already holds `perAddress` open ones (it is closed at once), so one
 * client cannot exhaust the process's sockets. `onRefused` hears of each refusal with the running total.
 */
export function limitConnectionsPerAddress(
  server: Server,
  perAddress: number,
  onRefused: (address: string, refused: number) => void,
): void {
  let refused = 0;
  if (perAddress <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    const count = open.get(address) ?? 0;
    if (count >= perAddress) {
      refused += 1;
      socket.destroy();
      onRefused(address, refused);
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
