import { encodeAbiParameters, encodePacked, type Address } from "viem";
import {
  DEV_MERKLE_ROOT,
  WORLD_ID_GROUP_ID,
  buildDevWorldId4Proof,
  devNullifierHash,
  devSessionId,
  devSessionSeed,
  devSessionNullifier,
  devWorldId4Nullifier,
  externalNullifierHashOf,
  hashToField,
  signalHashOf,
  worldId4ActionOf,
  type SessionProof,
  type UniquenessProof,
} from "@oro/clients";
import { ACTION, APP_ID, ENROLMENT_ACTION, GENESIS_CUTOFF, RP_ID, type Oro, type Wallet } from "./fixtures";
import { latestTimestamp } from "./helpers";

// Development World ID 4.0 proofs for the contract tests: the mock verifier accepts one exactly when its public
// inputs are the ones ORO pins, so each "made for something else" case is a proof made with another input.

export const ACTION4 = worldId4ActionOf(ENROLMENT_ACTION);
let randomCounter = 1n;

interface ProofOptions {
  rpId?: bigint;
  action?: bigint;
  issuerSchemaId?: bigint;
  genesisMin?: bigint;
  expiresAtMin?: bigint;
  signalHash?: bigint;
  sessionId?: bigint;
}

/** A human's uniqueness proof for the enrolment action, its signal `receiver ‖ sessionId`. */
export function uniqueness(human: string, receiver: Address, sessionId: bigint, now: bigint, options: ProofOptions = {}): UniquenessProof {
  const rpId = options.rpId ?? RP_ID;
  const action = options.action ?? ACTION4;
  const nullifier = devWorldId4Nullifier(human, rpId, action);
  const nonce = randomCounter++;
  const expiresAtMin = options.expiresAtMin ?? now;
  const signalHash = options.signalHash ?? hashToField(encodePacked(["address", "uint256"], [receiver, sessionId]));
  const proof = buildDevWorldId4Proof({
    nullifier, action, rpId, nonce, signalHash, expiresAtMin,
    issuerSchemaId: options.issuerSchemaId ?? 1n,
    credentialGenesisIssuedAtMin: options.genesisMin ?? GENESIS_CUTOFF,
  });
  return { nullifier, nonce, expiresAtMin, proof };
}

/** A session proof (a creation or a later proof) of `sessionId`, its signal `receiver`. */
export function session(sessionId: bigint, receiver: Address, now: bigint, options: ProofOptions & { sessionNullifier?: readonly [bigint, bigint] } = {}): SessionProof {
  const sessionNullifier = options.sessionNullifier ?? devSessionNullifier(randomCounter++);
  const nonce = randomCounter++;
  const expiresAtMin = options.expiresAtMin ?? now;
  const proof = buildDevWorldId4Proof({
    nullifier: sessionNullifier[0], action: sessionNullifier[1], rpId: options.rpId ?? RP_ID, nonce,
    signalHash: options.signalHash ?? signalHashOf(receiver), expiresAtMin,
    issuerSchemaId: options.issuerSchemaId ?? 1n,
    credentialGenesisIssuedAtMin: options.genesisMin ?? 0n,
    sessionId: options.sessionId ?? sessionId,
  });
  return { sessionId, sessionNullifier, nonce, expiresAtMin, proof };
}

export async function now(): Promise<bigint> {
  return (await latestTimestamp()) + 1n;
}

/**
 * Enrols `human` with a new session, the first claim to `wallet`. Their proofs carry `genesisMin`: the cut-off for
 * a human verified since (the default); 0 for one verified earlier, whose credential cannot prove the cut-off.
 */
export async function enrol(oro: Oro, wallet: Wallet, human: string, seed = 1n, genesisMin = GENESIS_CUTOFF): Promise<bigint> {
  const sessionId = devSessionId(human, seed);
  const t = await now();
  const receiver = wallet.account.address;
  await oro.write.enrolInWorldId4Session(
    [receiver, uniqueness(human, receiver, sessionId, t, { genesisMin }), session(sessionId, receiver, t, { genesisMin }), devSessionSeed(human, seed)],
    { account: wallet.account },
  );
  return sessionId;
}

export async function claim(oro: Oro, wallet: Wallet, sessionId: bigint, options: Parameters<typeof session>[3] = {}) {
  const receiver = wallet.account.address;
  return oro.write.claimWithSession([receiver, session(sessionId, receiver, await now(), options)], { account: wallet.account });
}

/** A 3.0 human moves to a new session: the 3.0 proof's signal is the session id. */
export async function move(oro: Oro, wallet: Wallet, human3: string, human4: string, seed = 1n, signalSession?: bigint) {
  const sessionId = devSessionId(human4, seed);
  const receiver = wallet.account.address;
  const t = await now();
  const proof3 = proofForSession(human3, signalSession ?? sessionId);
  return {
    sessionId,
    hash: await oro.write.moveToWorldId4Session([
      receiver, proof3.root, proof3.nullifierHash, proof3.proof,
      uniqueness(human4, receiver, sessionId, t, { genesisMin: 0n }),
      devSessionSeed(human4, seed),
      session(sessionId, receiver, t, { genesisMin: 0n }),
    ], { account: wallet.account }),
  };
}

/**
 * A development 3.0 proof whose signal is a session id (32 bytes): the 3.0 human chose that session. (buildDevProof
 * takes an address signal; the mock router's scheme is the same.)
 */
export function proofForSession(human: string, sessionId: bigint) {
  const signalHash = hashToField(encodePacked(["uint256"], [sessionId]));
  const nullifierHash = devNullifierHash(human);
  const commitment = hashToField(
    encodeAbiParameters(
      [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
      [DEV_MERKLE_ROOT, WORLD_ID_GROUP_ID, signalHash, nullifierHash, externalNullifierHashOf(APP_ID, ACTION)],
    ),
  );
  return { root: DEV_MERKLE_ROOT, nullifierHash, proof: [commitment, 0n, 0n, 0n, 0n, 0n, 0n, 0n] as const };
}

