import { oroWorldId4CallsAbi, sessionSeedOf, type SessionProof, type UniquenessProof } from "@oro/clients";
import { decodeFunctionResult, encodeFunctionData, type Address } from "viem";
import { callOro, chainClient, oroAddress, type MintData } from "./chain";
import type { ContractCall } from "./world-app/send-transaction";
import type { MoveProofs, PendingEnrolment, StoredEnrolment, WorldId4Verification, WorldIdSettings } from "./world-app/verify";

/*
 * The World ID 4.0 calls. Their proof structs make a heavy ABI, so this module loads when a 4.0 human claims or a
 * 3.0 human moves, not with the first screen.
 */

/** A 4.0 session's mint record. */
export async function readSessionMintData(sessionId: bigint): Promise<MintData> {
  const data = await callOro(encodeFunctionData({ abi: oroWorldId4CallsAbi, functionName: "sessionMintData", args: [sessionId] }));
  const [lastMintedAt, numOfMints] = decodeFunctionResult({ abi: oroWorldId4CallsAbi, functionName: "sessionMintData", data });
  return { lastMintedAt: BigInt(lastMintedAt), numOfMints: BigInt(numOfMints) };
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

/** The enrolment proofs as the device keeps them (see StoredEnrolment). */
export function encodeEnrolment({ uniqueness: u, session: s }: PendingEnrolment): StoredEnrolment {
  return {
    uniqueness: [u.nullifier, u.nonce, u.expiresAtMin, ...u.proof].map(String),
    session: [s.sessionId, ...s.sessionNullifier, s.nonce, s.expiresAtMin, ...s.proof].map(String),
  };
}

export function decodeEnrolment(stored: StoredEnrolment): PendingEnrolment {
  if (stored.uniqueness.length !== 8 || stored.session.length !== 10) throw new Error("the kept enrolment proofs are incomplete");
  const [nullifier = 0n, uNonce = 0n, uExpires = 0n, ...uProof] = stored.uniqueness.map(BigInt);
  const [sessionId = 0n, sn0 = 0n, sn1 = 0n, sNonce = 0n, sExpires = 0n, ...sProof] = stored.session.map(BigInt);
  const five = (p: bigint[]) => [p[0] ?? 0n, p[1] ?? 0n, p[2] ?? 0n, p[3] ?? 0n, p[4] ?? 0n] as const;
  const uniqueness: UniquenessProof = { nullifier, nonce: uNonce, expiresAtMin: uExpires, proof: five(uProof) };
  const session: SessionProof = { sessionId, sessionNullifier: [sn0, sn1], nonce: sNonce, expiresAtMin: sExpires, proof: five(sProof) };
  return { uniqueness, session };
}

/** The enrolment (the first claim) while its proofs are pending, else a claim with the fresh `sessionProof`. */
export function buildWorldId4Call(verification: WorldId4Verification, receiver: Address, sessionProof?: SessionProof): ContractCall {
  if (verification.enrolment) {
    const { uniqueness, session } = decodeEnrolment(verification.enrolment);
    const seed = sessionSeedOf(verification.idkitSessionId);
    return { to: oroAddress(), data: encodeFunctionData({ abi: oroWorldId4CallsAbi, functionName: "enrolInWorldId4Session", args: [receiver, uniqueness, session, seed] }) };
  }
  if (!sessionProof) throw new Error("a 4.0 claim needs a fresh session proof");
  return { to: oroAddress(), data: encodeFunctionData({ abi: oroWorldId4CallsAbi, functionName: "claimWithSession", args: [receiver, sessionProof] }) };
}

/** `moveToWorldId4Session`: a 3.0 human's history goes to their new session; their 3.0 path closes. */
export function buildMoveCall(proofs: MoveProofs, receiver: Address): ContractCall {
  const { worldId3, enrolment, idkitSessionId } = proofs;
  return {
    to: oroAddress(),
    data: encodeFunctionData({
      abi: oroWorldId4CallsAbi,
      functionName: "moveToWorldId4Session",
      args: [receiver, worldId3.merkleRoot, worldId3.nullifierHash, worldId3.proof, enrolment.uniqueness, sessionSeedOf(idkitSessionId), enrolment.session],
    }),
  };
}
