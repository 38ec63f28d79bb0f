import { oroAbi } from "@oro/clients";
import { BaseError, decodeErrorResult, isHex, type Address, type Hex } from "viem";
import { chainClient } from "./chain";
import type { ContractCall } from "./world-app/send-transaction";

/*
 * Why the contract refuses a claim, read again from the chain once the wallet failed to send it: World App answers
 * `simulation_failed` without a reason a mini app can rely on, so the app simulates the same call itself and names
 * the contract's error. Loaded only when a claim fails (the whole token ABI carries the errors).
 */

/** What the person is told: each kind is a message of its own (`claimRefused.*`). */
export type ClaimRefusal = "tooEarly" | "paused" | "verifyAgain" | "proofRefused" | "alreadyJoined";

/** The errors after which the stored proof or session can never mint again: the person verifies again. */
const VERIFY_AGAIN = new Set([
  "WorldId3IsClosed",
  "MovedToWorldId4",
  "UnknownSession",
  "InvalidSessionId",
  "SessionAlreadyEnrolled",
]);

/** The refusal a claim's revert data names. */
export function refusalOf(revertData: Hex): ClaimRefusal {
  let name: string | undefined;
  try {
    name = decodeErrorResult({ abi: oroAbi, data: revertData }).errorName;
  } catch {
    name = undefined;
  }
  if (name === "NotEnoughTimeSinceLastMint") return "tooEarly";
  if (name === "MintingKilled") return "paused";
  // The human enrolled with another session (from another wallet): this enrolment can never land.
  if (name === "HumanAlreadyEnrolled") return "alreadyJoined";
  if (name !== undefined && VERIFY_AGAIN.has(name)) return "verifyAgain";
  // The rest is World ID's verifier refusing the proof (its errors are not ORO's), or a proof the token found
  // replayed or older than the last: a fresh proof can pass.
  return "proofRefused";
}

/** The revert data a node put in its error: `data` as a hex string, or nested as `data.data` (Hardhat). */
function revertDataOf(error: unknown): Hex | undefined {
  const found = (value: unknown): Hex | undefined => {
    if (!value || typeof value !== "object" || !("data" in value)) return undefined;
    const data = (value).data;
    if (typeof data === "string" && isHex(data)) return data;
    return found(data);
  };
  if (error instanceof BaseError) {
    let data: Hex | undefined;
    error.walk((cause) => (data ??= found(cause)) !== undefined);
    return data;
  }
  return found(error);
}

/**
 * Simulates `call` from `from`: null when it would pass now (the failure was not the contract's) or when the node
 * cannot be asked, else the refusal the contract names.
 */
export async function explainRefusal(call: ContractCall, from: Address): Promise<ClaimRefusal | null> {
  try {
    await chainClient.request({ method: "eth_call", params: [{ from, to: call.to, data: call.data }, "latest"] });
    return null;
  } catch (error) {
    const data = revertDataOf(error);
    return data === undefined ? null : refusalOf(data);
  }
}
