import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getAddress, type Address } from "viem";
import { CHAIN_IDS, DEV_PROFILE } from "@oro/clients";

/** Chains this project knows by id. Mocks and the test-mode faucet exist only on the development chain. */
export const DEVELOPMENT_CHAIN_ID = DEV_PROFILE.chainId;
export const WORLD_CHAIN_ID = CHAIN_IDS.worldChain;
/** World's World ID router on World Chain (a proxy: the address stays when World upgrades it). */
export const WORLD_CHAIN_WORLD_ID_ROUTER: Address = "0x17B354dD2595411ff79041f930e491A4Df39A278";
/** World's World ID 4.0 verifier on World Chain, its proxy (world-id-protocol contracts/deployments/core/production.json). */
export const WORLD_CHAIN_WORLD_ID_VERIFIER: Address = "0x00000000009E00F9FE82CfeeBB4556686da094d7";

export const CONTRACT_NAMES = ["WorldIdRouter", "WorldIdVerifier", "Oro", "ReferralClaim", "TestModeFaucet"] as const;
export type DeployedContractName = (typeof CONTRACT_NAMES)[number];

export interface DeployedContract {
  address: Address;
  /** The block the contract was created in (0 for contracts this project did not deploy, such as World's router). */
  blockNumber: number;
}

/** The shape of contracts/deployments/<chainId>.json, which `pnpm generate` turns into typed addresses. */
export interface Deployment {
  chainId: number;
  /**
   * World ID app and action the ORO token was deployed with (3.0 proofs must be made for these), and its 4.0
   * settings: the relying party, the enrolment action and the genesis cut-off (unix seconds, as a string).
   */
  worldId: { appId: string; action: string; rpId: string; enrolmentAction: string; genesisCutoff: string };
  contracts: Partial<Record<DeployedContractName, DeployedContract>> & {
    WorldIdRouter: DeployedContract;
    WorldIdVerifier: DeployedContract;
    Oro: DeployedContract;
    ReferralClaim: DeployedContract;
  };
}

/** The committed deployments, which `pnpm generate` reads. */
export const DEPLOYMENTS_DIR = path.resolve(__dirname, "..", "deployments");

let deploymentsDir = DEPLOYMENTS_DIR;

/** Points reads and writes at another folder (tests use a temporary one so the committed files stay as they are). */
export function useDeploymentsDir(dir: string): void {
  deploymentsDir = dir;
}

export function deploymentPath(chainId: number): string {
  return path.join(deploymentsDir, `${chainId}.json`);
}

export function readDeployment(chainId: number): Deployment | undefined {
  const file = deploymentPath(chainId);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, "utf8")) as Deployment;
  if (parsed.chainId !== chainId) throw new Error(`${file} describes chain ${parsed.chainId}, not ${chainId}`);
  return parsed;
}

export function writeDeployment(deployment: Deployment): string {
  mkdirSync(deploymentsDir, { recursive: true });
  const contracts: Record<string, DeployedContract> = {};
  for (const name of CONTRACT_NAMES) {
    const entry = deployment.contracts[name];
    if (entry) contracts[name] = { address: getAddress(entry.address), blockNumber: entry.blockNumber };
  }
  const file = deploymentPath(deployment.chainId);
  const text = `${JSON.stringify({ ...deployment, contracts }, null, 2)}\n`;
  // Several local chains (test suites, the dev stack) may deploy at once and readers may be mid-read:
  // leave an identical file alone, and replace a changed one atomically.
  if (existsSync(file) && readFileSync(file, "utf8") === text) return file;
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, file);
  return file;
}
