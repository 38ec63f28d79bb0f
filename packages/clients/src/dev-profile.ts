import type { Hex } from "viem";
import { CHAIN_IDS } from "./generated/contracts.js";

/**
 * The development profile, in one place: the local chain, Hardhat's public accounts, the local World ID app and
 * the stack's default ports. The apps fall back to these outside production only; the stack and the tests start
 * services with them. Publicly known values: never use them for anything real.
 */
export const DEV_PROFILE = {
  chainId: CHAIN_IDS.development,
  /** Hardhat's public test mnemonic: account #0 deploys and owns the local contracts. */
  mnemonic: "test test test test test test test test test test test junk",
  /** The World ID app id of the local deployment. */
  worldAppId: "app_staging_oro_local",
  /** IDKit 4 takes only rp_ and 16 hex digits as a relying-party id: 0x7a69 is 31337. */
  worldIdRpId: "rp_0000000000007a69",
  host: "127.0.0.1",
  ports: { chain: 8545, indexer: 42069, api: 3001, web: 5173, simulator: 4100 },
} as const;

/** http://127.0.0.1:<port> of one development service, on its default port unless told another. */
export function devServiceUrl(service: keyof typeof DEV_PROFILE.ports, port: number = DEV_PROFILE.ports[service]): string {
  return `http://${DEV_PROFILE.host}:${port}`;
}

/**
 * Private keys of Hardhat's public development accounts (mnemonic "test test ... junk"), for the local
 * chain's development profiles only. Publicly known: never hold real funds with them.
 */
export const DEV_PRIVATE_KEYS = {
  /** Account #1: signs referral vouchers; the deploy sets it as the claim contract's signer on 31337. */
  claimSigner: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  /** Account #2: the API's payout wallet for auto rewards. */
  payoutWallet: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  /** Account #9: signs IDKit requests (World ID's development relying party). */
  worldIdSigner: "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
} as const satisfies Record<string, Hex>;

/** Account #1's address, the wallet the API's documentation shows as an example. */
export const EXAMPLE_WALLET_ADDRESS = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
