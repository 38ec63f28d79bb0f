import hre from "hardhat";
import { expect } from "chai";
import { parseEther, type Address, type Hash, type Hex } from "viem";
import type { ContractTypesMap } from "hardhat/types/artifacts";
import type { WalletClient } from "@nomicfoundation/hardhat-viem/types";
import { buildDevProof, devNullifierHash, referralVoucherTypes, type DevProof, type ReferralVoucher } from "@oro/clients";
// The deployment's own actions and cut-off, from the one place the deploy reads them.
import { CLAIM_ACTION, ENROLMENT_ACTION, WORLD_ID_4_GENESIS_CUTOFF } from "../env";

export const APP_ID = "app_staging_oro_test";
export const ACTION = CLAIM_ACTION;
export const CHAIN_ID = 31337n;
export const AMOUNT_PER_MINT = parseEther("0.5");
export const WAIT_BETWEEN_MINTS = 86_400n;
/** The development relying party's id as the verifier takes it (rp_0000000000007a69). */
export const RP_ID = 0x7a69n;
export { ENROLMENT_ACTION };
/** 2026-06-01T00:00:00Z: while 3.0 is open, a 4.0 enrolment needs a credential issued at or after it. */
export const GENESIS_CUTOFF = WORLD_ID_4_GENESIS_CUTOFF;

/** The constructor's World ID 4.0 settings, with the development rp id, action and cut-off. */
export function worldId4Settings(verifier: Address) {
  return { verifier, rpId: RP_ID, enrolmentAction: ENROLMENT_ACTION, genesisCutoff: GENESIS_CUTOFF };
}
export const MAX_UINT80 = 2n ** 80n - 1n;
export const MAX_UINT40 = 2n ** 40n - 1n;
export const MAX_UINT32 = 2n ** 32n - 1n;
export const MAX_UINT128 = 2n ** 128n - 1n;
export const MAX_UINT256 = 2n ** 256n - 1n;

export type Oro = ContractTypesMap["Oro"];
export type ReferralClaim = ContractTypesMap["ReferralClaim"];
export type Wallet = WalletClient;

// The voucher's EIP-712 types come from @oro/clients, so these tests also prove the helper the API signs with.
export const VOUCHER_TYPES = referralVoucherTypes;
export type Voucher = ReferralVoucher;

// A type alias, not an interface: viem's typed-data helpers need an index-signature-compatible domain.
export type VoucherDomain = {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
};

export function voucherDomain(verifyingContract: Address, chainId = Number(CHAIN_ID)): VoucherDomain {
  return { name: "ORO ReferralClaim", version: "1", chainId, verifyingContract };
}

/** The backend's voucher signature (EIP-712, as the API signs it). */
export async function signVoucher(signer: Wallet, domain: VoucherDomain, voucher: Voucher): Promise<Hex> {
  return signer.signTypedData({ domain, types: VOUCHER_TYPES, primaryType: "Voucher", message: voucher });
}

function wallet(wallets: readonly Wallet[], index: number): Wallet {
  const found = wallets[index];
  if (found === undefined) throw new Error(`the hardhat network has no account ${index}`);
  return found;
}

/** World's two World ID 4.0 verifier implementations, as MockWorldIdVerifier's Version enum numbers them. */
export const VERIFIER_VERSIONS = ["V1", "V2"] as const;
export type VerifierVersion = (typeof VERIFIER_VERSIONS)[number];

/** MockWorldIdRouter, Oro, ReferralClaim and TestModeFaucet as a development chain has them (the verifier as World's V1). */
export async function deployFixture() {
  return deployWith("V1");
}

/** The same, with the verifier as World's V2. */
export async function deployFixtureV2() {
  return deployWith("V2");
}

/** One fixture per verifier version (loadFixture needs the same function each time to reuse its snapshot). */
export const FIXTURES: Record<VerifierVersion, typeof deployFixture> = { V1: deployFixture, V2: deployFixtureV2 };

async function deployWith(version: VerifierVersion) {
  const wallets = await hre.viem.getWalletClients();
  const owner = wallet(wallets, 0);
  const alice = wallet(wallets, 1);
  const bob = wallet(wallets, 2);
  const carol = wallet(wallets, 3);
  const signer = wallet(wallets, 4);
  const mallory = wallet(wallets, 5);
  const publicClient = await hre.viem.getPublicClient();

  const router = await hre.viem.deployContract("MockWorldIdRouter");
  const verifier = await hre.viem.deployContract("MockWorldIdVerifier", [VERIFIER_VERSIONS.indexOf(version), [RP_ID]]);
  const oro = await hre.viem.deployContract("Oro", [
    router.address, APP_ID, ACTION, CHAIN_ID, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, owner.account.address, worldId4Settings(verifier.address),
  ]);
  const claim = await hre.viem.deployContract("ReferralClaim", [oro.address, signer.account.address, owner.account.address]);
  const faucet = await hre.viem.deployContract("TestModeFaucet", [oro.address, AMOUNT_PER_MINT]);

  return { publicClient, owner, alice, bob, carol, signer, mallory, wallets, router, verifier, oro, claim, faucet, version };
}

export type Deployment = Awaited<ReturnType<typeof deployWith>>;

/** A development proof that `human` wants ORO minted to `receiver`, for the fixture's app and action. */
export function proofFor(human: string, receiver: Address, appId = APP_ID, action = ACTION): DevProof {
  return buildDevProof({ receiver, nullifierHash: devNullifierHash(human), appId, action });
}

/** Mints to `receiver` with a valid proof of `human`, submitted by `from` (the receiver form). */
export async function mintTo(oro: Oro, from: Wallet, human: string, receiver: Address): Promise<Hash> {
  const { root, nullifierHash, proof } = proofFor(human, receiver);
  return oro.write.mint([root, nullifierHash, proof, receiver], { account: from.account });
}

/** Mints to the caller with a valid proof of `human` (the short form). */
export async function mintSelf(oro: Oro, from: Wallet, human: string): Promise<Hash> {
  const { root, nullifierHash, proof } = proofFor(human, from.account.address);
  return oro.write.mint([root, nullifierHash, proof], { account: from.account });
}

export async function expectBalance(oro: Oro, account: Address, expected: bigint): Promise<void> {
  expect(await oro.read.balanceOf([account])).to.equal(expected);
}
