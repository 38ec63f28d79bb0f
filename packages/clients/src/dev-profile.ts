import type { Hex } from "viem";

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
