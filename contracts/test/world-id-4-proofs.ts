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
  enrolmentSessionSignalOf,
  enrolmentSignalOf,
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
  const signalHash = options.signalHash ?? hashToField(enrolmentSignalOf(receiver, sessionId));
  const genesisMin = options.genesisMin ?? GENESIS_CUTOFF;
  const proof = buildDevWorldId4Proof({
    nullifier, action, rpId, nonce, signalHash, expiresAtMin,
    issuerSchemaId: options.issuerSchemaId ?? 1n,
    credentialGenesisIssuedAtMin: genesisMin,
  });
  return { nullifier, nonce, expiresAtMin, credentialGenesisIssuedAtMin: genesisMin, proof };
}

/** The session proof that completes an enrolment or a move: its holder names receiver, seed, 3.0 human and 4.0 human. */
export function completion(
  sessionId: bigint,
  receiver: Address,
  sessionSeed: bigint,
  movedFrom: bigint,
  human: bigint,
  now: bigint,
  options: ProofOptions & { sessionNullifier?: readonly [bigint, bigint] } = {},
): SessionProof {
  return session(sessionId, receiver, now, {
    genesisMin: GENESIS_CUTOFF,
    ...options,
    signalHash: options.signalHash ?? hashToField(enrolmentSessionSignalOf(receiver, sessionSeed, movedFrom, human)),
  });
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
  await oro.write.enrolInWorldId4Session(await enrolmentArgs(wallet.account.address, human, seed, genesisMin), { account: wallet.account });
  return sessionId;
}

/** The arguments of an honest enrolment of `human` to `receiver`, with a new session from `seed`. */
export async function enrolmentArgs(receiver: Address, human: string, seed = 1n, genesisMin = GENESIS_CUTOFF) {
  const sessionId = devSessionId(human, seed);
  const sessionSeed = devSessionSeed(human, seed);
  const t = await now();
  const enrolment = uniqueness(human, receiver, sessionId, t, { genesisMin });
  return [receiver, sessionSeed, completion(sessionId, receiver, sessionSeed, 0n, enrolment.nullifier, t, { genesisMin }), enrolment] as const;
}

export async function claim(oro: Oro, wallet: Wallet, sessionId: bigint, options: Parameters<typeof session>[3] = {}) {
  const receiver = wallet.account.address;
  return oro.write.claimWithSession([receiver, session(sessionId, receiver, await now(), options)], { account: wallet.account });
}

/** A 3.0 human moves to a new session: the 3.0 proof's signal is `receiver ‖ sessionId`. */
export async function move(oro: Oro, wallet: Wallet, human3: string, human4: string, seed = 1n, signalSession?: bigint) {
  const receiver = wallet.account.address;
  const args = await moveArgs(receiver, human3, human4, seed, signalSession);
  return { sessionId: devSessionId(human4, seed), hash: await oro.write.moveToWorldId4Session(args, { account: wallet.account }) };
}

/** The arguments of an honest move of 3.0 `human3` (their 4.0 self `human4`) to `receiver` and a new session. */
export async function moveArgs(receiver: Address, human3: string, human4: string, seed = 1n, signalSession?: bigint) {
  const sessionId = devSessionId(human4, seed);
  const sessionSeed = devSessionSeed(human4, seed);
  const t = await now();
  const proof3 = proofForSession(human3, receiver, signalSession ?? sessionId);
  const enrolment = uniqueness(human4, receiver, sessionId, t, { genesisMin: 0n });
  return [
    receiver, proof3.root, proof3.nullifierHash, sessionSeed, enrolment, proof3.proof,
    completion(sessionId, receiver, sessionSeed, proof3.nullifierHash, enrolment.nullifier, t, { genesisMin: 0n }),
  ] as const;
}

/**
 * A development 3.0 proof whose signal is `receiver ‖ sessionId` (52 bytes): the 3.0 human chose that receiver and that
 * session. (buildDevProof takes an address signal; the mock router's scheme is the same.)
 */
export function proofForSession(human: string, receiver: Address, sessionId: bigint) {
  const signalHash = hashToField(encodePacked(["address", "uint256"], [receiver, sessionId]));
  const nullifierHash = devNullifierHash(human);
  const commitment = hashToField(
    encodeAbiParameters(
      [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
      [DEV_MERKLE_ROOT, WORLD_ID_GROUP_ID, signalHash, nullifierHash, externalNullifierHashOf(APP_ID, ACTION)],
    ),
  );
  return { root: DEV_MERKLE_ROOT, nullifierHash, proof: [commitment, 0n, 0n, 0n, 0n, 0n, 0n, 0n] as const };
}

