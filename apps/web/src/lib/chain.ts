import { CHAIN_IDS, oroClaimScreenAbi } from "@oro/clients";
import {
  createClient,
  decodeFunctionResult,
  defineChain,
  encodeFunctionData,
  http,
  type Address,
  type Chain,
  type Hex,
} from "viem";
import { deployment, env } from "../env";
import type { ContractCall } from "./world-app/send-transaction";
import type { VerificationResult } from "./world-app/verify";

/**
 * The chain as viem needs it here: id, name, currency and RPC. Defined here rather than imported from viem/chains,
 * whose World Chain entry brings the OP Stack formatters and serializers (reads only, in this bundle).
 */
export const chain: Chain = defineChain({
  id: env.chainId,
  name: env.chainId === CHAIN_IDS.worldChain ? "World Chain" : "Local development chain",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [env.rpcUrl] } },
});

/** A bare client with only the actions used here, so the bundle carries no unused viem actions. */
export const chainClient = createClient({ chain, transport: http(env.rpcUrl, { retryCount: 0 }) });

/** Thrown when the configured chain has no ORO deployment in the generated clients. */
export class MissingDeploymentError extends Error {
  override readonly name = "MissingDeploymentError";
  constructor() {
    super(`No ORO deployment is known for chain ${env.chainId}`);
  }
}

/**
 * One `eth_call` to the ORO token. The reads below encode and decode with the generated ABI themselves: viem's
 * readContract would add its deployless-call and CCIP support, about 10 KiB, to the first load.
 */
async function callOro(data: Hex): Promise<Hex> {
  return chainClient.request({ method: "eth_call", params: [{ to: oroAddress(), data }, "latest"] });
}

export function oroAddress(): Address {
  const address = deployment?.contracts.Oro.address;
  if (!address) throw new MissingDeploymentError();
  return address;
}

export interface MintData {
  /** Unix seconds of the human's last mint; 0 when they never minted. */
  lastMintedAt: bigint;
  numOfMints: bigint;
}

export async function readMintData(nullifierHash: bigint): Promise<MintData> {
  const data = await callOro(encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "nullifierHashMintData", args: [nullifierHash] }));
  const [lastMintedAt, numOfMints] = decodeFunctionResult({ abi: oroClaimScreenAbi, functionName: "nullifierHashMintData", data });
  return { lastMintedAt: BigInt(lastMintedAt), numOfMints: BigInt(numOfMints) };
}

export async function readWaitBetweenMints(): Promise<bigint> {
  const data = await callOro(encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "waitBetweenMints" }));
  return BigInt(decodeFunctionResult({ abi: oroClaimScreenAbi, functionName: "waitBetweenMints", data }));
}

export async function readAmountPerMint(): Promise<bigint> {
  const data = await callOro(encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "amountPerMint" }));
  return decodeFunctionResult({ abi: oroClaimScreenAbi, functionName: "amountPerMint", data });
}

export async function readTotalSupply(): Promise<bigint> {
  const data = await callOro(encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "totalSupply" }));
  return decodeFunctionResult({ abi: oroClaimScreenAbi, functionName: "totalSupply", data });
}

export async function readOroBalance(owner: Address): Promise<bigint> {
  const data = await callOro(encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "balanceOf", args: [owner] }));
  return decodeFunctionResult({ abi: oroClaimScreenAbi, functionName: "balanceOf", data });
}

/** The mint call for a verified human, paying the signed-in address (the proof's signal). */
export function buildMintCall(verification: VerificationResult, receiver: Address): ContractCall {
  return {
    to: oroAddress(),
    data: encodeFunctionData({
      abi: oroClaimScreenAbi,
      functionName: "mint",
      args: [verification.merkleRoot, verification.nullifierHash, verification.proof, receiver],
    }),
  };
}
