// Slow clients for drill 7: `node slow-clients.mjs <host> <port> <count> <give up after s>`. Opens <count>
// connections that send a request's headers and then stall in its body (Content-Length promises more than is sent),
// and as many that stall in their headers; prints one JSON line: for each kind, how many were cut off (an answer or
// the socket closed) and after how long, and how many were still open when it gave up.
import net from "node:net";

const [host, portArg, countArg = "20", giveUpArg = "40"] = process.argv.slice(2);
const port = Number(portArg);
const count = Number(countArg);
const giveUpMs = Number(giveUpArg) * 1000;

function stall(kind) {
  return new Promise((resolve) => {
    const started = Date.now();
    let status = null;
    const socket = net.connect({ host, port }, () => {
      if (kind === "body") {
        socket.write(`POST /api/auth/siwe HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"message":`);
      } else {
        socket.write(`GET /api/health HTTP/1.1\r\nHost: ${host}:${port}\r\nX-Slow: `);
      }
    });
    socket.on("data", (chunk) => {
      status ??= /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1] ?? null;
    });
    const done = (open) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ open, afterMs: Date.now() - started, status });
    };
    const timer = setTimeout(() => done(true), giveUpMs);
    socket.on("close", () => done(false));
    socket.on("error", () => undefined);
  });
}

const summary = {};
for (const kind of ["body", "headers"]) {
  const results = await Promise.all(Array.from({ length: count }, () => stall(kind)));
  const cut = results.filter((r) => !r.open);
  summary[kind] = {
    connections: count,
    stillOpen: results.length - cut.length,
    cutOffAfterMs: cut.length > 0 ? { min: Math.min(...cut.map((r) => r.afterMs)), max: Math.max(...cut.map((r) => r.afterMs)) } : null,
    answers: Object.fromEntries([...new Set(cut.map((r) => r.status ?? "none"))].map((s) => [s, cut.filter((r) => (r.status ?? "none") === s).length])),
  };
}
console.log(JSON.stringify(summary));
