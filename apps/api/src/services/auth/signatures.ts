import { recoverMessageAddress, type Address, type Hex, type PublicClient } from "viem";
import { ApiError } from "../../lib/errors.js";

/**
 * Whether `address` signed `message` (EIP-191): an EOA by ECDSA recovery, a smart-contract wallet (World
 * App's Safe) through its EIP-1271 `isValidSignature` on chain. The chain is asked only when recovery does
 * not give the address, so EOA checks work without a node.
 */
export async function isPersonalSignatureValid(
  publicClient: PublicClient,
  address: Address,
  message: string,
  signature: Hex,
): Promise<boolean> {
  const recovered = await recoverMessageAddress({ message, signature }).catch(() => undefined);
  if (recovered?.toLowerCase() === address.toLowerCase()) return true;
  if (!(await hasContractCode(publicClient, address))) return false;
  return publicClient.verifyMessage({ address, message, signature }).catch(() => false);
}

/** True when `address` is a contract; ApiError 503 when the chain cannot be reached. */
export async function hasContractCode(publicClient: PublicClient, address: Address): Promise<boolean> {
  try {
    const code = await publicClient.getCode({ address });
    return code !== undefined && code !== "0x";
  } catch (error) {
    throw new ApiError(503, "CHAIN_UNAVAILABLE", `cannot reach the chain to check the wallet: ${(error as Error).message}`);
  }
}
