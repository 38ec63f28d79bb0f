import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";

/** The one script tag World App's web view would add: the MiniKit bridge, before any script of the page. */
export const BRIDGE_TAG = '<script src="/__simulator/bridge.js"></script>';

/** Puts the bridge first in <head> (or first in the document), so it runs before the mini app's modules. */
export function injectBridge(html: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + BRIDGE_TAG + html.slice(head.index + head[0].length);
  return BRIDGE_TAG + html;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);

/**
 * Forwards one request to `target` (an origin). HTML answers get the bridge; everything else streams through.
 * The Host header becomes the target's, like Vite's `changeOrigin`.
 */
export function forward(req: IncomingMessage, res: ServerResponse, target: string, options: { inject: boolean }): void {
  const url = new URL(req.url ?? "/", target);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers[name] = value;
  }
  headers.host = url.host;
  // Plain bodies: the bridge is injected into text, not into gzip.
  if (options.inject) headers["accept-encoding"] = "identity";
  const upstream = httpRequest(url, { method: req.method, headers }, (answer) => {
    const type = String(answer.headers["content-type"] ?? "");
    const outHeaders = { ...answer.headers };
    for (const name of HOP_BY_HOP) delete outHeaders[name];
    if (options.inject && type.includes("text/html")) {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        const body = Buffer.from(injectBridge(Buffer.concat(chunks).toString("utf8")), "utf8");
        delete outHeaders["content-length"];
        delete outHeaders.etag;
        res.writeHead(answer.statusCode ?? 502, { ...outHeaders, "content-length": body.length, "cache-control": "no-store" });
        res.end(body);
      });
      answer.on("error", () => res.destroy());
      return;
    }
    res.writeHead(answer.statusCode ?? 502, outHeaders);
    answer.pipe(res);
  });
  upstream.on("error", (error) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
    res.end(`The simulator could not reach ${target}: ${error.message}`);
  });
  req.pipe(upstream);
}

/** Forwards a WebSocket upgrade (Vite's hot reload) as raw bytes. */
export function forwardUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, target: string, sockets: Set<Socket>): void {
  const url = new URL(target);
  const upstream = connect(Number(url.port || 80), url.hostname, () => {
    const lines = [`${req.method ?? "GET"} ${req.url ?? "/"} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] ?? "";
      const value = name.toLowerCase() === "host" ? url.host : (req.rawHeaders[i + 1] ?? "");
      lines.push(`${name}: ${value}`);
    }
    upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  sockets.add(upstream);
  const close = () => {
    sockets.delete(upstream);
    upstream.destroy();
    socket.destroy();
  };
  upstream.on("error", close);
  upstream.on("close", close);
  socket.on("error", close);
  socket.on("close", close);
}
