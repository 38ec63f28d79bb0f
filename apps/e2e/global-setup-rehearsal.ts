import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CHAIN_IDS } from "@oro/clients";
import { startSimulator } from "@oro/dev-stack";
import { HAS_CHROMIUM, NO_CHROMIUM_MESSAGE } from "@oro/dev-stack/chromium";
import { STACK_VARIABLE, type E2eStack } from "./support/stack-file.js";

const here = path.dirname(fileURLToPath(import.meta.url));

function setting(name: string): string {
  const value = process.env[name]?.trim();
  if (!value) throw new Error(`${name} is not set: the rehearsal's journeys need the running stack's addresses (packages/deploy/rehearsal/rehearse.sh sets them)`);
  return value;
}

/**
 * The journeys against a running stack in its production shape: only the simulator starts here, serving the mini
 * app and /api from Caddy's URL (ORO_E2E_TARGET_URL) and playing World Chain on the stack's development chain
 * (ORO_E2E_TARGET_RPC_URL). It listens on ORO_E2E_SIMULATOR_PORT, a port the stack's API knows (its SIWE_DOMAINS
 * and CORS_ORIGINS name it), and checks World ID requests against the stack's own relying-party signer
 * (ORO_E2E_WORLD_ID_SIGNER). The stack's indexer is not reachable from here; these journeys do not read it.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  // The rehearsal is the production check: a journey that cannot run is a failure, never a skip (the suite's own run,
  // global-setup.ts, skips on a machine without a browser).
  if (!HAS_CHROMIUM) throw new Error(`the rehearsal's journeys cannot run: ${NO_CHROMIUM_MESSAGE}`);
  const target = new URL(setting("ORO_E2E_TARGET_URL")).origin;
  const rpcUrl = setting("ORO_E2E_TARGET_RPC_URL");
  const signer = setting("ORO_E2E_WORLD_ID_SIGNER");
  if (!/^0x[0-9a-fA-F]{40}$/.test(signer)) throw new Error(`ORO_E2E_WORLD_ID_SIGNER must be an address, got "${signer}"`);
  const port = Number(setting("ORO_E2E_SIMULATOR_PORT"));
  const ready = await fetch(`${target}/api/ready`).catch((error: unknown) => error as Error);
  if (!(ready instanceof Response) || !ready.ok) {
    throw new Error(`the stack at ${target} is not ready (GET /api/ready: ${ready instanceof Response ? ready.status : ready.message})`);
  }
  const logsDir = path.join(here, ".stack", "rehearsal-logs");
  rmSync(logsDir, { recursive: true, force: true });
  mkdirSync(logsDir, { recursive: true });
  const simulator = await startSimulator({
    port,
    miniAppUrl: target,
    apiUrl: target,
    chainRpcUrl: rpcUrl,
    chainId: CHAIN_IDS.development,
    worldIdRpSigner: signer as `0x${string}`,
    logFile: path.join(logsDir, "simulator.log"),
  });
  const info: E2eStack = { simulatorUrl: simulator.url, apiUrl: target, rpcUrl, indexerUrl: "", logsDir };
  process.env[STACK_VARIABLE] = JSON.stringify(info);
  console.log(`e2e rehearsal: simulator ${simulator.url} on the stack at ${target} (chain ${rpcUrl})`);
  return () => simulator.stop();
}
