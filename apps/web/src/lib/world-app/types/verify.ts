import type { SignedWorldIdRequest, UniquenessProof, WorldIdProof, WorldIdRequestKind } from "@oro/clients";

// The verify command's types, in a file of their own (verify.ts re-exports them): the development wallet and the
// app's services name them without importing the command, which loads IDKit and reads the configuration.

/** A World ID 3.0 proof for the claim action, ready for `mint(root, nullifierHash, proof, receiver)` (reusable). */
export interface WorldId3Verification {
  version: "3.0";
  merkleRoot: bigint;
  nullifierHash: bigint;
  proof: WorldIdProof;
}

/**
 * An enrolment or a move World App has answered for, whose transaction has not landed: its new session and the
 * uniqueness proof for the enrolment action (signal receiver ‖ session), which World App discloses once and refuses
 * again after 10 minutes (`nullifier_replayed`). Kept on the device and on the API until the chain shows it; the
 * session proof that completes it is asked for at each attempt.
 */
export interface PendingEnrolment {
  kind: "enrol" | "move";
  idkitSessionId: `session_${string}`;
  uniqueness: UniquenessProof;
  /** A move's 3.0 proof (signal receiver ‖ session), once World App gave it; 3.0 proofs can be asked again. */
  worldId3: WorldId3Verification | null;
}

/** A World ID 4.0 human: their session (each claim proves it afresh), or the enrolment that will create it. */
export interface WorldId4Verification {
  version: "4.0";
  idkitSessionId: `session_${string}`;
  /** Until the enrolment lands: the slide sends it. */
  pending: PendingEnrolment | null;
}

export type VerificationResult = WorldId3Verification | WorldId4Verification;

/**
 * The request context IDKit 4 takes (`rp_context`): the request the API signs (SignedWorldIdRequest of @oro/clients)
 * without the action it covers, which IDKit is given on its own.
 */
export type RpContext = Omit<SignedWorldIdRequest, "action">;

/** Asks the API to sign a request: the 3.0 claim action, the 4.0 enrolment action, or a session (no action). */
export type SignWorldIdRequest = (kind: WorldIdRequestKind) => Promise<RpContext>;

/** What the chain says about the move from 3.0 (read before asking World App, so the request fits the contract). */
export interface WorldIdSettings {
  worldId3Closed: boolean;
  /** Unix seconds: while 3.0 is open, only credentials issued since may enrol (older humans move instead). */
  genesisCutoff: number;
  /** The chain's clock: the proofs' minimum credential expiry, which each claim must raise. */
  chainNow: number;
}

/** Writes a pending enrolment where it survives the app (the device first, then the API) before anything else. */
export type KeepPending = (pending: PendingEnrolment) => Promise<void>;

/** What verifying needs besides World App: the chain's settings, what is already known, and where to keep proofs. */
export interface VerifyContext {
  settings(): Promise<WorldIdSettings>;
  /**
   * What needs no prompt: a pending enrolment kept on the device or the API, or the session the chain records for
   * the wallet's human (enrolled on another device). Asked first, and again when World App says it disclosed the
   * enrolment before (`nullifier_replayed`).
   */
  known(): Promise<VerificationResult | null>;
  keep: KeepPending;
}
