import { oroClaimScreenAbi, sessionIdOf } from "@oro/clients";
import { decodeFunctionResult, encodeFunctionData, type Address, type Hex } from "viem";
import { deployment, env } from "../env";
import type { ContractCall } from "./world-app/send-transaction";
import type { VerificationResult, WorldId3Verification } from "./world-app/verify";

/** A JSON-RPC error from the node; `data` is a revert's data when a call reverted. */
export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    message: string,
    readonly code: number | undefined,
    readonly data: unknown,
  ) {
    super(message);
  }
}

interface RpcMethods {
  eth_call: { params: [{ from?: Address; to: Address; data: Hex }, "latest" | "pending"]; result: Hex };
  eth_getBlockByNumber: { params: ["latest" | "pending", false]; result: { timestamp: Hex } | null };
}

let nextId = 1;

/**
 * The chain's JSON-RPC, the few methods the app reads with: a plain fetch, no retries (react-query retries). viem's
 * client and http transport would add their batching, retry and error classes, some 3 KiB, to the first load.
 */
export const chainClient = {
  async request<M extends keyof RpcMethods>({ method, params }: { method: M; params: RpcMethods[M]["params"] }): Promise<RpcMethods[M]["result"]> {
    const response = await fetch(env.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
    if (!response.ok) throw new RpcError(`HTTP request failed: ${response.status}`, undefined, undefined);
    const answer = (await response.json()) as { result?: RpcMethods[M]["result"]; error?: { code?: number; message?: string; data?: unknown } };
    if (answer.error) throw new RpcError(answer.error.message ?? "JSON-RPC error", answer.error.code, answer.error.data);
    return answer.result as RpcMethods[M]["result"];
  },
};

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
export async function callOro(data: Hex): Promise<Hex> {
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
  /** A 3.0 record whose human moved to a 4.0 session (their 3.0 path is closed). */
  movedToWorldId4?: boolean;
  /** A 4.0 session's last proof's expiry bound: 0 until the session is enrolled; a claim's proof must exceed it. */
  lastExpiresAtMin?: bigint;
}

/** Where the chain keeps a human's mints: by 3.0 nullifier hash, or by 4.0 session. */
export type MintRecord = { version: "3.0"; nullifierHash: bigint } | { version: "4.0"; sessionId: bigint };

export function mintRecordOf(verification: VerificationResult): MintRecord {
  return verification.version === "3.0"
    ? { version: "3.0", nullifierHash: verification.nullifierHash }
    : { version: "4.0", sessionId: sessionIdOf(verification.idkitSessionId) };
}

/** A stable text key of a mint record, for query keys. */
export function mintRecordKey(record: MintRecord | null): string | null {
  if (!record) return null;
  return record.version === "3.0" ? `3:${record.nullifierHash}` : `4:${record.sessionId}`;
}

/** A 3.0 human's mint record (a 4.0 session's is read by lib/world-id-calls.ts, loaded on use). */
export async function readMintData3(nullifierHash: bigint): Promise<MintData> {
  const data = await callOro(encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "nullifierHashMintData", args: [nullifierHash] }));
  const [lastMintedAt, numOfMints, movedToWorldId4] = decodeFunctionResult({ abi: oroClaimScreenAbi, functionName: "nullifierHashMintData", data });
  return { lastMintedAt: BigInt(lastMintedAt), numOfMints: BigInt(numOfMints), movedToWorldId4 };
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

/** The 3.0 mint call for a verified human, paying the signed-in address (the proof's signal). */
export function buildMintCall(verification: WorldId3Verification, receiver: Address): ContractCall {
  return {
    to: oroAddress(),
    data: encodeFunctionData({
      abi: oroClaimScreenAbi,
      functionName: "mint",
      args: [verification.merkleRoot, verification.nullifierHash, verification.proof, receiver],
    }),
  };
}
