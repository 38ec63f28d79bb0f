import { CHAIN_IDS } from "@oro/clients";

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
    port: integer("SIMULATOR_PORT", 4100),
    host: process.env.SIMULATOR_HOST?.trim() || "127.0.0.1",
    miniAppUrl: url("MINI_APP_URL", `http://127.0.0.1:${integer("WEB_PORT", 5173)}`),
    chainRpcUrl: url("RPC_URL", `http://127.0.0.1:${integer("CHAIN_PORT", 8545)}`),
    apiUrl: url("API_URL", `http://127.0.0.1:${integer("API_PORT", 3001)}`),
    chainId: CHAIN_IDS.development,
  };
}
