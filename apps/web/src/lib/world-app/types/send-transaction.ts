import type { Address, Hex } from "viem";

export interface ContractCall {
  to: Address;
  data: Hex;
}

export interface SentTransaction {
  /** World App's user operation hash, or the transaction hash on the development chain. */
  id: Hex;
  via: "world-app" | "development";
}
