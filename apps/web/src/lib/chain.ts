import { CHAIN_IDS, oroClaimScreenAbi, sessionIdOf, sessionSeedOf, type SessionProof } from "@oro/clients";
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
import type { MoveProofs, VerificationResult, WorldIdSettings } from "./world-app/verify";

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
  /** A 3.0 record whose human moved to a 4.0 session (their 3.0 path is closed). */
  movedToWorldId4?: boolean;
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

export async function readMintData(record: MintRecord): Promise<MintData> {
  if (record.version === "4.0") {
    const data = await callOro(encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "sessionMintData", args: [record.sessionId] }));
    const [lastMintedAt, numOfMints] = decodeFunctionResult({ abi: oroClaimScreenAbi, functionName: "sessionMintData", data });
    return { lastMintedAt: BigInt(lastMintedAt), numOfMints: BigInt(numOfMints) };
  }
  const data = await callOro(encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "nullifierHashMintData", args: [record.nullifierHash] }));
  const [lastMintedAt, numOfMints, movedToWorldId4] = decodeFunctionResult({ abi: oroClaimScreenAbi, functionName: "nullifierHashMintData", data });
  return { lastMintedAt: BigInt(lastMintedAt), numOfMints: BigInt(numOfMints), movedToWorldId4 };
}

/** Whether 3.0 is closed and the enrolment cut-off, from the contract; the chain's clock beside them. */
export async function readWorldIdSettings(): Promise<WorldIdSettings> {
  const [data, block] = await Promise.all([
    callOro(encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "worldIdStatus" })),
    chainClient.request({ method: "eth_getBlockByNumber", params: ["pending", false] }),
  ]);
  const [worldId3Closed, , , , genesisCutoff] = decodeFunctionResult({ abi: oroClaimScreenAbi, functionName: "worldIdStatus", data });
  return { worldId3Closed, genesisCutoff: Number(genesisCutoff), chainNow: Number(BigInt(block?.timestamp ?? "0x0")) };
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

/** `moveToWorldId4Session`: a 3.0 human's history goes to their new session; their 3.0 path closes. */
export function buildMoveCall(proofs: MoveProofs, receiver: Address): ContractCall {
  const { worldId3, enrolment, idkitSessionId } = proofs;
  return {
    to: oroAddress(),
    data: encodeFunctionData({
      abi: oroClaimScreenAbi,
      functionName: "moveToWorldId4Session",
      args: [receiver, worldId3.merkleRoot, worldId3.nullifierHash, worldId3.proof, enrolment.uniqueness, sessionSeedOf(idkitSessionId), enrolment.session],
    }),
  };
}

/**
 * The mint call for a verified human, paying the signed-in address (the proofs' signal): a 3.0 mint, a 4.0
 * enrolment (the first claim), or a 4.0 claim with the fresh session proof `sessionProof`.
 */
export function buildMintCall(verification: VerificationResult, receiver: Address, sessionProof?: SessionProof): ContractCall {
  if (verification.version === "4.0") {
    if (verification.enrolment) {
      const { uniqueness, session } = verification.enrolment;
      const seed = sessionSeedOf(verification.idkitSessionId);
      return { to: oroAddress(), data: encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "enrolInWorldId4Session", args: [receiver, uniqueness, session, seed] }) };
    }
    if (!sessionProof) throw new Error("a 4.0 claim needs a fresh session proof");
    return { to: oroAddress(), data: encodeFunctionData({ abi: oroClaimScreenAbi, functionName: "claimWithSession", args: [receiver, sessionProof] }) };
  }
  return {
    to: oroAddress(),
    data: encodeFunctionData({
      abi: oroClaimScreenAbi,
      functionName: "mint",
      args: [verification.merkleRoot, verification.nullifierHash, verification.proof, receiver],
    }),
  };
}
