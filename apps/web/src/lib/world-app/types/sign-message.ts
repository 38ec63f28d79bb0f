import type { Address, Hex } from "viem";

export interface SignedMessage {
  address: Address;
  signature: Hex;
}
