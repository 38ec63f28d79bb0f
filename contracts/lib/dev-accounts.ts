import { getAddress, type Address } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { DEV_PROFILE } from "@oro/clients";

/**
 * Hardhat's public development accounts, from the development profile's mnemonic ("test test ... junk"): the local
 * chain's owner and signer, and never an owner or signer anywhere else. Publicly known: never for real funds.
 */

/** How many of the mnemonic's accounts Hardhat's chains hand out (its default). */
const HARDHAT_ACCOUNT_COUNT = 20;

const derived = new Map<number, Address>();

/** Account #`index` of the development mnemonic, derived when first asked for (each derivation costs a PBKDF2 run). */
export function developmentAccount(index: number): Address {
  let address = derived.get(index);
  if (address === undefined) {
    address = mnemonicToAccount(DEV_PROFILE.mnemonic, { addressIndex: index }).address;
    derived.set(index, address);
  }
  return address;
}

/** The accounts the local chain's deployment gives a role. */
export const DEV_ACCOUNTS = {
  /** Account #0: deploys and owns everything on the local chain. */
  get owner(): Address {
    return developmentAccount(0);
  },
  /** Account #1: the referral voucher signer (its key is DEV_PRIVATE_KEYS.claimSigner, which the API signs with). */
  get claimSigner(): Address {
    return developmentAccount(1);
  },
};

/** Whether `address` is one of Hardhat's public development accounts. */
export function isDevelopmentAccount(address: Address): boolean {
  const wanted = getAddress(address);
  return Array.from({ length: HARDHAT_ACCOUNT_COUNT }, (_, index) => developmentAccount(index)).includes(wanted);
}
