import { CHAIN_IDS, oroAbi } from "@oro/clients";
import {
  createClient,
  decodeFunctionResult,
  encodeFunctionData,
  http,
  type Address,
  type Chain,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  type Hex,
} from "viem";
import { hardhat, worldchain } from "viem/chains";
import { deployment, env } from "../env";
import type { ContractCall } from "./world-app/send-transaction";
import type { VerificationResult } from "./world-app/verify";

export const chain: Chain = env.chainId === CHAIN_IDS.worldChain ? worldchain : hardhat;

/** A bare client with only the actions used here, so the bundle carries no unused viem actions. */
export const chainClient = createClient({ chain, transport: http(env.rpcUrl, { retryCount: 0 }) });

/** Thrown when the configured chain has no ORO deployment in the generated clients. */
export class MissingDeploymentError extends Error {
  override readonly name = "MissingDeploymentError";
  constructor() {
    super(`No ORO deployment is known for chain ${env.chainId}`);
  }
}

type OroRead = ContractFunctionName<typeof oroAbi, "view" | "pure">;

/**
 * One `eth_call` on the ORO token, encoded and decoded with the generated ABI. Deliberately lower level than viem's
 * readContract, whose deployless-call and CCIP support would add about 10 KiB to the first load.
 */
async function readOro<F extends OroRead>(
  functionName: F,
  args: ContractFunctionArgs<typeof oroAbi, "view" | "pure", F>,
): Promise<ContractFunctionReturnType<typeof oroAbi, "view" | "pure", F>> {
  const data = encodeFunctionData({ abi: oroAbi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);
  const result: Hex = await chainClient.request({
    method: "eth_call",
    params: [{ to: oroAddress(), data }, "latest"],
  });
  return decodeFunctionResult({ abi: oroAbi, functionName, data: result }) as ContractFunctionReturnType<typeof oroAbi, "view" | "pure", F>;
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
  const [lastMintedAt, numOfMints] = await readOro("nullifierHashMintData", [nullifierHash]);
  return { lastMintedAt: BigInt(lastMintedAt), numOfMints: BigInt(numOfMints) };
}

export async function readWaitBetweenMints(): Promise<bigint> {
  return BigInt(await readOro("waitBetweenMints", []));
}

export async function readAmountPerMint(): Promise<bigint> {
  return readOro("amountPerMint", []);
}

export async function readOroBalance(owner: Address): Promise<bigint> {
  return readOro("balanceOf", [owner]);
}

/** The mint call for a verified human, paying the signed-in address (the proof's signal). */
export function buildMintCall(verification: VerificationResult, receiver: Address): ContractCall {
  return {
    to: oroAddress(),
    data: encodeFunctionData({
      abi: oroAbi,
      functionName: "mint",
      args: [verification.merkleRoot, verification.nullifierHash, verification.proof, receiver],
    }),
  };
}
