// One address flooding Caddy with connections, for drill 7: `node connection-flood.mjs <host> <port> <count> <seconds>`.
// Keeps <count> connections open for <seconds>, each opened again 50 ms after it was closed (as an attacker would),
// sending nothing. Samples twice a second how many had been open for at least a second (a connection refused over
// the cap is reset within milliseconds, even behind Docker's port proxy, which accepts it first), and prints one
// JSON line when it ends: the most held at once, how many attempts were cut off or refused, and how many were made.
import net from "node:net";

const [host, portArg, countArg = "1000", secondsArg = "20"] = process.argv.slice(2);
const port = Number(portArg);
const count = Number(countArg);
const endsAt = Date.now() + Number(secondsArg) * 1000;

const open = new Map(); // socket -> when it connected
let attempts = 0;
let cutOff = 0;
let maxHeld = 0;

function connect() {
  if (Date.now() >= endsAt) return;
  attempts++;
  const socket = net.connect({ host, port });
  socket.on("connect", () => open.set(socket, Date.now()));
  socket.on("error", () => undefined);
  socket.on("close", () => {
    open.delete(socket);
    cutOff++;
    setTimeout(connect, 50);
  });
}

for (let i = 0; i < count; i++) connect();
const sampler = setInterval(() => {
  const now = Date.now();
  let held = 0;
  for (const since of open.values()) if (now - since >= 1000) held++;
  maxHeld = Math.max(maxHeld, held);
  if (now >= endsAt) {
    clearInterval(sampler);
    console.log(JSON.stringify({ connections: count, maxHeldOpen: maxHeld, attempts, cutOffOrRefused: cutOff }));
    for (const socket of open.keys()) socket.destroy();
  }
}, 500);
