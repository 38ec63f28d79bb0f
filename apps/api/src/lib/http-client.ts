import http, { type IncomingMessage } from "node:http";
import https from "node:https";

/** A whole answer of a peer the API calls over node:http(s) (the indexer, World's notification API). */
export interface HttpAnswer {
  status: number;
  text: string;
}

/**
 * How long a kept-alive connection may sit unused before we close it, unless the peer announces a shorter keep-alive
 * (`Keep-Alive: timeout=N`): then Node's agent closes it a second before the peer would. Without a timeout of its own
 * the agent ignores that announcement and may reuse a connection just as the peer closes it: a reset, which for World
 * is a request that may have reached it, never sent again (a batch of reminders lost).
 */
const IDLE_CONNECTION_MS = 30_000;

/**
 * One peer's kept-alive connections, for its http: and https: URLs: every call reuses an open connection, as a
 * browser would. Idle sockets do not hold the process open (the agents unref their free sockets).
 */
export function keepAliveAgents(): (url: string) => { client: typeof http | typeof https; agent: http.Agent } {
  const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return (url) => (url.startsWith("https:") ? { client: https, agent: agents.https } : { client: http, agent: agents.http });
}

/** Reads `response` whole, as text: `done` with it once it ended, `failed` if it broke off. */
export function readAnswer(response: IncomingMessage, done: (answer: HttpAnswer) => void, failed: (error: Error) => void): void {
  const chunks: Buffer[] = [];
  response.on("data", (chunk: Buffer) => chunks.push(chunk));
  response.on("error", failed);
  response.on("end", () => done({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
}
