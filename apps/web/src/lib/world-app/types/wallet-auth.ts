import type { Address, Hex } from "viem";

export interface WalletAuthRequest {
  /** The API's single-use nonce (alphanumeric, at least 8 characters). */
  nonce: string;
  statement: string;
}

export interface WalletAuthSignature {
  address: Address;
  /** The SIWE message the wallet signed. */
  message: string;
  signature: Hex;
}
