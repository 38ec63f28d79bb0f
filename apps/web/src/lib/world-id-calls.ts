import { oroWorldId4CallsAbi, sessionSeedOf, type SessionProof } from "@oro/clients";
import { decodeFunctionResult, encodeFunctionData, type Address } from "viem";
import { callOro, chainClient, oroAddress, type MintData } from "./chain";
import type { ContractCall } from "./world-app/send-transaction";
import type { PendingEnrolment, WorldIdSettings } from "./world-app/verify";

/*
 * The World ID 4.0 calls. Their proof structs make a heavy ABI, so this module loads when a 4.0 human claims or a
 * 3.0 human moves, not with the first screen.
 */

/** A 4.0 session's mint record; `lastExpiresAtMin` is 0 until the session is enrolled. */
export async function readSessionMintData(sessionId: bigint): Promise<MintData> {
  const data = await callOro(encodeFunctionData({ abi: oroWorldId4CallsAbi, functionName: "sessionMintData", args: [sessionId] }));
  const [lastMintedAt, numOfMints, lastExpiresAtMin] = decodeFunctionResult({ abi: oroWorldId4CallsAbi, functionName: "sessionMintData", data });
  return { lastMintedAt: BigInt(lastMintedAt), numOfMints: BigInt(numOfMints), lastExpiresAtMin: BigInt(lastExpiresAtMin) };
}

/** Whether 3.0 is closed and the enrolment cut-off, from the contract; the chain's clock beside them. */
export async function readWorldIdSettings(): Promise<WorldIdSettings> {
  const [data, block] = await Promise.all([
    callOro(encodeFunctionData({ abi: oroWorldId4CallsAbi, functionName: "worldIdStatus" })),
    chainClient.request({ method: "eth_getBlockByNumber", params: ["pending", false] }),
  ]);
  const [worldId3Closed, , , , genesisCutoff] = decodeFunctionResult({ abi: oroWorldId4CallsAbi, functionName: "worldIdStatus", data });
  return { worldId3Closed, genesisCutoff: Number(genesisCutoff), chainNow: Number(BigInt(block?.timestamp ?? "0x0")) };
}

/** `enrolInWorldId4Session`: the human's first claim, with the session proof asked for at the slide. */
export function buildEnrolmentCall(pending: PendingEnrolment, receiver: Address, session: SessionProof): ContractCall {
  return {
    to: oroAddress(),
    data: encodeFunctionData({
      abi: oroWorldId4CallsAbi,
      functionName: "enrolInWorldId4Session",
      args: [receiver, sessionSeedOf(pending.idkitSessionId), session, pending.uniqueness],
    }),
  };
}

/** `moveToWorldId4Session`: a 3.0 human's history goes to their new session; their 3.0 path closes. */
export function buildMoveCall(pending: PendingEnrolment, receiver: Address, session: SessionProof): ContractCall {
  const { worldId3 } = pending;
  if (!worldId3) throw new Error("a move needs its 3.0 proof");
  return {
    to: oroAddress(),
    data: encodeFunctionData({
      abi: oroWorldId4CallsAbi,
      functionName: "moveToWorldId4Session",
      args: [receiver, worldId3.merkleRoot, worldId3.nullifierHash, sessionSeedOf(pending.idkitSessionId), pending.uniqueness, worldId3.proof, session],
    }),
  };
}

/** `claimWithSession`: an enrolled human's claim with a fresh session proof. */
export function buildSessionClaimCall(receiver: Address, session: SessionProof): ContractCall {
  return { to: oroAddress(), data: encodeFunctionData({ abi: oroWorldId4CallsAbi, functionName: "claimWithSession", args: [receiver, session] }) };
}
