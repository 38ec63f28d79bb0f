import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import net from "node:net";

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** A process this test started, in its own process group, stopped by its own PID only. */
export interface Service {
  name: string;
  child: ChildProcess;
  output(): string;
  waitForOutput(text: string, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

export function startService(name: string, command: string, args: string[], options: SpawnOptions): Service {
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-1_000_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;

  return {
    name,
    child,
    output: () => output,
    async waitForOutput(text, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!output.includes(text)) {
        if (!running()) throw new Error(`${name} exited before printing "${text}":\n${output.slice(-4_000)}`);
        if (Date.now() > deadline) throw new Error(`${name} did not print "${text}" in ${timeoutMs} ms:\n${output.slice(-4_000)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (child.pid === undefined || !running()) return;
      const group = -child.pid;
      const kill = (signal: NodeJS.Signals) => {
        try {
          process.kill(group, signal);
        } catch {
          // already gone
        }
      };
      kill("SIGTERM");
      const timer = setTimeout(() => kill("SIGKILL"), 8_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function waitForHttpOk(url: string, timeoutMs: number, service: Service): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service.child.exitCode !== null) throw new Error(`${service.name} exited:\n${service.output().slice(-4_000)}`);
    const status = await fetch(url).then((r) => r.status, () => 0);
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} not ready in ${timeoutMs} ms:\n${service.output().slice(-4_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
