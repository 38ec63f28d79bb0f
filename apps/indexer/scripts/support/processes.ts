import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import net from "node:net";

/** A port that was free a moment ago (the OS picks it), for a server we are about to start. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("could not read the port the OS picked"));
      });
    });
  });
}

/** A process we started in its own process group, with its output kept for diagnostics. */
export interface Service {
  name: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr interleaved). */
  output(): string;
  /** Resolves once its output contains `text`; rejects if it exits first or the timeout passes. */
  waitForOutput(text: string | RegExp, timeoutMs: number): Promise<void>;
  /** Stops the whole process group: SIGTERM, then SIGKILL after a grace period. Safe to call twice. */
  stop(): Promise<void>;
}

export function startService(name: string, command: string, args: string[], options: SpawnOptions): Service {
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  return {
    name,
    child,
    output: () => output,
    waitForOutput(text, timeoutMs) {
      const found = () => (typeof text === "string" ? output.includes(text) : text.test(output));
      return new Promise<void>((resolve, reject) => {
        const finish = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off("exit", onExit);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (found()) finish();
        };
        const onExit = (code: number | null) =>
          finish(new Error(`${name} exited (code ${code}) before printing ${String(text)}:\n${output.slice(-4_000)}`));
        const timer = setTimeout(
          () => finish(new Error(`${name} did not print ${String(text)} within ${timeoutMs} ms:\n${output.slice(-4_000)}`)),
          timeoutMs,
        );
        listeners.add(check);
        child.once("exit", onExit);
        check();
      });
    },
    async stop() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const group = -child.pid;
      const signal = (sig: NodeJS.Signals) => {
        try {
          process.kill(group, sig);
        } catch {
          // Already gone.
        }
      };
      signal("SIGTERM");
      const killTimer = setTimeout(() => signal("SIGKILL"), 8_000);
      await exited;
      clearTimeout(killTimer);
      // Children that ignored SIGTERM after their parent left.
      signal("SIGKILL");
    },
  };
}

/** Polls `url` until it answers 200, or throws after `timeoutMs` (with the service's recent output). */
export async function waitForHttpOk(url: string, timeoutMs: number, service?: Service): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (service && (service.child.exitCode !== null || service.child.signalCode !== null)) {
      throw new Error(`${service.name} exited before ${url} was ready:\n${service.output().slice(-4_000)}`);
    }
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      throw new Error(`${url} was not ready within ${timeoutMs} ms${service ? `:\n${service.output().slice(-4_000)}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
