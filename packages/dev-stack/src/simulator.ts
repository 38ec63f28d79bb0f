import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./ports.js";
import { startService, type Service } from "./processes.js";
import { workspacePaths } from "./workspace.js";
import { inheritedEnv } from "./env.js";

/** What `@oro/simulator` exports from its package entry (built JavaScript). */
/**
 * The World App simulator's settings: its one home (the simulator's server takes this type; the stack passes it
 * to the simulator's process as JSON).
 */
export interface SimulatorOptions {
  /** 0 picks a free port. */
  port: number;
  host: string;
  /** Where the mini app is served (the web app's dev server or preview), e.g. http://127.0.0.1:5173. */
  miniAppUrl: string;
  /** The local chain that plays World Chain. */
  chainRpcUrl: string;
  /** The API; the simulator serves it to the mini app under /api of its own origin. */
  apiUrl: string;
  /** The local chain's id (31337). */
  chainId: number;
  /**
   * The relying party's signer World checks IDKit requests against (the address of the API's WORLD_ID_SIGNING_KEY);
   * default: the development key's (a rehearsal passes its own).
   */
  worldIdRpSigner?: `0x${string}`;
}

export interface SimulatorModule {
  startSimulator(options: SimulatorOptions): Promise<{ url: string; close(): Promise<void> }>;
}

interface PackageJson {
  main?: string;
  exports?: string | Record<string, unknown>;
}

function entryOf(manifest: PackageJson): string | undefined {
  const root = typeof manifest.exports === "object" && manifest.exports !== null ? manifest.exports["."] ?? manifest.exports : manifest.exports;
  if (typeof root === "string") return root;
  if (root && typeof root === "object") {
    const conditions = root as Record<string, unknown>;
    for (const key of ["import", "node", "default"]) {
      const value = conditions[key];
      if (typeof value === "string") return value;
      if (value && typeof value === "object" && typeof (value as Record<string, unknown>).default === "string") {
        return (value as Record<string, string>).default;
      }
    }
  }
  return manifest.main;
}

/** Where the simulator's built entry is, or why it cannot be used. */
export function locateSimulator(): { entry: string } | { unavailable: string } {
  const { simulator } = workspacePaths();
  const manifestPath = path.join(simulator, "package.json");
  if (!existsSync(manifestPath)) return { unavailable: "not available (apps/simulator is not in this checkout)" };
  const entry = entryOf(JSON.parse(readFileSync(manifestPath, "utf8")) as PackageJson);
  if (!entry) return { unavailable: "not available (apps/simulator/package.json names no entry)" };
  const file = path.resolve(simulator, entry);
  if (!existsSync(file)) return { unavailable: `not built (${path.relative(simulator, file)} is missing: run pnpm build)` };
  return { entry: file };
}

export interface RunningSimulator {
  url: string;
  port: number;
  service: Service;
  stop(): Promise<void>;
}

export type StartSimulatorOptions = Omit<SimulatorOptions, "port" | "host"> & {
  port?: number;
  host?: string;
  logFile?: string;
  /** Called with the process as soon as it is spawned (so that a caller can stop it while it starts). */
  onStarted?: (service: Service) => void;
  timeoutMs?: number;
};

const runner = path.join(path.dirname(fileURLToPath(import.meta.url)), "run-simulator.js");

/**
 * The World App simulator in its own process (its output goes to its log, a crash is seen like any other
 * service's); throws when `locateSimulator()` finds none.
 */
export async function startSimulator(options: StartSimulatorOptions): Promise<RunningSimulator> {
  const located = locateSimulator();
  if ("unavailable" in located) throw new Error(`the simulator is ${located.unavailable}`);
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? (await freePort(host));
  const settings: SimulatorOptions = {
    port,
    host,
    miniAppUrl: options.miniAppUrl,
    chainRpcUrl: options.chainRpcUrl,
    apiUrl: options.apiUrl,
    chainId: options.chainId,
    ...(options.worldIdRpSigner ? { worldIdRpSigner: options.worldIdRpSigner } : {}),
  };
  const service = startService("simulator", process.execPath, [runner, located.entry, JSON.stringify(settings)], {
    cwd: workspacePaths().simulator,
    env: inheritedEnv(),
    ...(options.logFile ? { logFile: options.logFile } : {}),
  });
  options.onStarted?.(service);
  try {
    await service.waitForOutput(/simulator ready at \S+/, options.timeoutMs ?? 60_000);
  } catch (error) {
    await service.stop();
    throw error;
  }
  const url = /simulator ready at (\S+)/.exec(service.output())?.[1] ?? `http://${host}:${port}`;
  return { url, port, service, stop: () => service.stop() };
}
