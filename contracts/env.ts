import { isAddress, isHex, type Address, type Hex } from "viem";
import { DEV_PROFILE } from "@oro/clients";
import { parseDuration, parseOro } from "./lib/units";

/**
 * The contracts package's configuration, read from the environment here and nowhere else.
 *
 * Development defaults apply to the local chain (31337) only. On World Chain the deploy refuses to start
 * unless the router, app id, claim signer and deployer key are set explicitly.
 */

export const CLAIM_ACTION = "claim-tokens-action";
/** World ID 4.0's enrolment action (one uniqueness proof per human, ever). */
export const ENROLMENT_ACTION = "oro-enrolment";
/** Phase 2 of World ID 4.0 (2026-06-01T00:00:00Z): a credential issued since has no 3.0 path. */
export const WORLD_ID_4_GENESIS_CUTOFF = 1_780_272_000n;

/** The two implementations World's World ID 4.0 verifier proxy may point at; the local chain's mock behaves as one. */
export const WORLD_ID_VERIFIER_VERSIONS = ["V1", "V2"] as const;
export type WorldIdVerifierVersion = (typeof WORLD_ID_VERIFIER_VERSIONS)[number];

function readVerifierVersion(name: string): WorldIdVerifierVersion {
  const value = read(name)?.toUpperCase() ?? "V1";
  const version = WORLD_ID_VERIFIER_VERSIONS.find((known) => known === value);
  if (!version) throw new Error(`${name} must be V1 or V2, got "${value}"`);
  return version;
}

function read(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value === "" ? undefined : value;
}

function readAddress(name: string): Address | undefined {
  const value = read(name);
  if (value === undefined) return undefined;
  if (!isAddress(value)) throw new Error(`${name} must be a 0x-prefixed 20-byte address, got "${value}"`);
  return value;
}

function readPrivateKey(name: string): Hex | undefined {
  const value = read(name);
  if (value === undefined) return undefined;
  if (!isHex(value) || value.length !== 66) throw new Error(`${name} must be a 0x-prefixed 32-byte hex private key`);
  return value;
}

function readPort(name: string, fallback: number): number {
  const value = read(name);
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`${name} must be a TCP port, got "${value}"`);
  return port;
}

const chainHost = read("CHAIN_HOST") ?? DEV_PROFILE.host;
const chainPort = readPort("CHAIN_PORT", DEV_PROFILE.ports.chain);

export const env = {
  /** Set by the `test` script: the instrumented coverage build then goes to folders of its own. */
  coverageRun: read("SOLIDITY_COVERAGE") === "true",
  /** Where the local chain listens (the `chain` task) and where `--network localhost` connects. */
  chainHost,
  chainPort,
  localRpcUrl: read("LOCAL_RPC_URL") ?? `http://${chainHost}:${chainPort}`,
  worldChainRpcUrl: read("WORLDCHAIN_RPC_URL") ?? "https://worldchain-mainnet.g.alchemy.com/public",
  worldChainSepoliaRpcUrl: read("WORLDCHAIN_SEPOLIA_RPC_URL") ?? "https://worldchain-sepolia.g.alchemy.com/public",
  /** Deployer and owner key for public networks. The local chain uses DEV_ACCOUNTS.owner (lib/dev-accounts.ts). */
  deployerPrivateKey: readPrivateKey("DEPLOYER_PRIVATE_KEY"),
  /** World's router on World Chain; required there, ignored on the local chain (a mock is deployed). */
  worldIdRouter: readAddress("WORLD_ID_ROUTER_ADDRESS"),
  /** World's World ID 4.0 verifier (its proxy); required off the local chain (a mock is deployed there). */
  worldIdVerifier: readAddress("WORLD_ID_VERIFIER_ADDRESS"),
  /**
   * Local chain only: which of World's verifiers the mock behaves as. V1 by default: World's recorded production
   * deployment predates V2 (docs/world-id-4.md).
   */
  devWorldIdVerifierVersion: readVerifierVersion("DEV_WORLD_ID_VERIFIER_VERSION"),
  /** The relying party's id from the developer portal (rp_ + 16 hex digits); required off the local chain. */
  worldIdRpId: read("WORLD_ID_RP_ID"),
  enrolmentAction: read("WORLD_ID_ENROLMENT_ACTION") ?? ENROLMENT_ACTION,
  /** Unix seconds: while 3.0 is open, a 4.0 enrolment needs a credential issued at or after this. */
  genesisCutoff: BigInt(read("WORLD_ID_4_GENESIS_CUTOFF") ?? WORLD_ID_4_GENESIS_CUTOFF),
  /** The World developer portal app id; required on World Chain. */
  appId: read("WORLD_APP_ID"),
  action: read("WORLD_ID_ACTION") ?? CLAIM_ACTION,
  amountPerMint: parseOro(read("ORO_AMOUNT_PER_MINT") ?? "0.5"),
  waitBetweenMints: parseDuration(read("ORO_WAIT_BETWEEN_MINTS") ?? "24h"),
  /** Address whose signatures the referral claim contract honours; required on World Chain. */
  claimSigner: readAddress("CLAIM_SIGNER_ADDRESS"),
  /** Development chain only: how many dev humans mint at deploy to fund the claim contract and faucet. */
  devFundingMints: Number(read("DEV_FUNDING_MINTS") ?? "40"),
  /** Test-mode faucet payout per claim (development chain only). */
  faucetAmountPerClaim: parseOro(read("FAUCET_AMOUNT_PER_CLAIM") ?? "0.5"),
};
