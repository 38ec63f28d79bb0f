import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { Socket } from "node:net";
import { freePort } from "./bench-support.js";

// A throwaway Redis (Debian's redis-server) for what needs the shared rate-limit store as production runs it: the
// replicas test and the benchmarks. Nothing is written to disk; stop() ends it.

/** Debian's redis-server, or undefined when it is not installed (apt-get install redis-server). */
export const redisServerBinary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((file) => existsSync(file));

export interface RedisServer {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
}

/** Whether the server on this port answers PING. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data: Buffer) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
  });
}

/** Starts redis-server on a free port of 127.0.0.1; resolves once it answers PING. */
export async function startRedisServer(): Promise<RedisServer> {
  if (!redisServerBinary) throw new Error("redis-server is not installed (apt-get install redis-server)");
  const port = await freePort();
  const child = spawn(redisServerBinary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  const deadline = Date.now() + 30_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("redis-server did not answer PING in 30 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}
