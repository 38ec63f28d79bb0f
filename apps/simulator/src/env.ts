import { DEV_PROFILE, devServiceUrl } from "@oro/clients";

/**
 * The configuration of the standalone simulator (`pnpm --filter @oro/simulator dev`), read here and nowhere
 * else. Everything points at a local stack; the stack command passes the same values to startSimulator itself.
 */
function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) throw new Error(`${name} must be a port number, got "${raw}"`);
  return value;
}

function url(name: string, fallback: string): string {
  const raw = process.env[name]?.trim() || fallback;
  try {
    return new URL(raw).toString();
  } catch {
    throw new Error(`${name} must be a URL, got "${raw}"`);
  }
}

export function loadSimulatorEnv() {
  return {
    port: integer("SIMULATOR_PORT", DEV_PROFILE.ports.simulator),
    host: process.env.SIMULATOR_HOST?.trim() || DEV_PROFILE.host,
    miniAppUrl: url("MINI_APP_URL", devServiceUrl("web", integer("WEB_PORT", DEV_PROFILE.ports.web))),
    chainRpcUrl: url("RPC_URL", devServiceUrl("chain", integer("CHAIN_PORT", DEV_PROFILE.ports.chain))),
    apiUrl: url("API_URL", devServiceUrl("api", integer("API_PORT", DEV_PROFILE.ports.api))),
    chainId: DEV_PROFILE.chainId,
  };
}
