import path from "node:path";
import { DEV_PROFILE } from "@oro/clients";
import { workspaceRoot } from "./workspace.js";

/** The stack's services, in the order they are shown. */
export const SERVICE_NAMES = ["chain", "indexer", "api", "web", "simulator"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** The variable that moves each service, and its default port. */
export const PORT_VARIABLES: Record<ServiceName, { variable: string; defaultPort: number }> = {
  chain: { variable: "CHAIN_PORT", defaultPort: DEV_PROFILE.ports.chain },
  indexer: { variable: "INDEXER_PORT", defaultPort: DEV_PROFILE.ports.indexer },
  api: { variable: "API_PORT", defaultPort: DEV_PROFILE.ports.api },
  web: { variable: "WEB_PORT", defaultPort: DEV_PROFILE.ports.web },
  simulator: { variable: "SIMULATOR_PORT", defaultPort: DEV_PROFILE.ports.simulator },
};

export interface StackConfig {
  ports: Record<ServiceName, number>;
  /** Logs, per-run data and the state file (default `<repo>/.stack`). */
  stackDir: string;
  /** When the command was typed (the launcher sets it before building), for the elapsed time. */
  startedAt: number;
  /** The launcher already printed the heading line (before its build step). */
  headerShown: boolean;
}

/** A setting the user can fix; the command prints its message as one line, without a stack trace. */
export class StackConfigError extends Error {}

/** The stack command's settings, read here and nowhere else. */
export function loadStackConfig(source: Record<string, string | undefined> = process.env): StackConfig {
  const ports = {} as Record<ServiceName, number>;
  const seen = new Map<number, string>();
  for (const name of SERVICE_NAMES) {
    const { variable, defaultPort } = PORT_VARIABLES[name];
    const raw = source[variable]?.trim();
    const port = raw ? Number(raw) : defaultPort;
    if (!Number.isInteger(port) || port < 1 || port > 65_535) {
      throw new StackConfigError(`${variable} must be a port number (1-65535), got "${raw ?? ""}"`);
    }
    const other = seen.get(port);
    if (other) throw new StackConfigError(`${variable} and ${other} are both ${port}: give each service its own port`);
    seen.set(port, variable);
    ports[name] = port;
  }
  const startedAt = Number(source.STACK_STARTED_AT);
  return {
    ports,
    stackDir: path.resolve(source.STACK_DIR?.trim() || path.join(workspaceRoot(), ".stack")),
    startedAt: Number.isFinite(startedAt) && startedAt > 0 ? startedAt : Date.now(),
    headerShown: source.STACK_HEADER_SHOWN === "1",
  };
}

/**
 * The environment every service starts from: the user's own (PATH, proxies, locale, their overrides), read
 * here like the rest of the stack's settings; each service sets its own variables on top.
 */
export function inheritedEnv(): NodeJS.ProcessEnv {
  return process.env;
}

/** Where the root `pnpm bench` collects every benchmark's figures (ORO_BENCH_FIGURES), if it runs them. */
export function benchFiguresFile(): string | undefined {
  return process.env.ORO_BENCH_FIGURES || undefined;
}

/** The Chromium the tests, benches and scripts drive: Debian's (never a downloaded browser), or CHROMIUM_PATH. */
export function chromiumPathFrom(source: Record<string, string | undefined> = process.env): string {
  return source.CHROMIUM_PATH?.trim() || "/usr/bin/chromium";
}
