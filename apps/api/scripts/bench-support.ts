import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { API_ROOT } from "./paths.js";

// What the API's benchmarks share: free ports, the API as a process of its own, and a stand-in for the indexer.

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  return port;
}

/** Answers the indexer's routes the API calls, in the indexer's shapes (apps/indexer src/api/types.ts). */
export function fakeIndexer(): Server {
  return createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://indexer");
    const send = (body: unknown) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    const [, group, address, sub] = url.pathname.split("/");
    const now = Math.floor(Date.now() / 1000);
    if (group === "stats") return send({ waitBetweenMints: 86_400 });
    if (group === "streaks" && sub === "claims") return send({ claims: [] });
    if (group === "streaks" && address) {
      return send({
        address,
        nullifierHash: `0x${"1".padStart(64, "0")}`,
        currentStreak: 3,
        longestStreak: 7,
        numOfMints: 12,
        lastMintedAt: now - 3_600,
        nextMintAt: now - 3_600 + 86_400,
        streakExpiresAt: now - 3_600 + 2 * 86_400,
      });
    }
    if (group === "referral-payouts" && address === "nonces") return send({ nonce: sub, claimed: false, payout: null });
    if (group === "referral-payouts") return send({ payouts: [] });
    response.writeHead(404).end();
  });
}

/** Node itself with tsx's loader, so that the PID is the server's own (and it can be profiled). */
export function start(name: string, args: string[], env: Record<string, string>, nodeFlags: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", ...args], {
    cwd: API_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.once("exit", (code) => {
    if (code !== null && code !== 0) console.error(`${name} exited with ${code}:\n${output.slice(-3_000)}`);
  });
  return child;
}

export async function waitForOk(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited`);
    if ((await fetch(url).then((r) => r.status, () => 0)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer in 60 s`);
}
