// The rehearsal's stand-in for the operator's pager and the dead man's switch (stack.yml's `alert-sink`): keeps every
// webhook Alertmanager POSTs, with the time it arrived and its path; GET /received answers them all as JSON.
import { createServer } from "node:http";

const received = [];
createServer((request, response) => {
  if (request.method === "GET" && request.url === "/received") {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received));
    return;
  }
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    try {
      // At most the last 1,000: the watchdog arrives every minute for as long as the stack runs.
      received.push({ at: Date.now(), path: request.url, body: JSON.parse(body) });
      if (received.length > 1_000) received.shift();
      response.writeHead(200).end();
    } catch {
      response.writeHead(400).end();
    }
  });
}).listen(9095, "0.0.0.0");
