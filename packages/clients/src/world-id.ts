import { sessionIdOf } from "./session-id.js";
import { encodeAbiParameters, encodePacked, keccak256, stringToBytes, stringToHex, toHex, type Address, type Hex } from "viem";

/** World ID's Orb group, the only group whose proofs mint ORO. */
export const WORLD_ID_GROUP_ID = 1n;

/** World ID's hash-to-field: keccak256 shifted right by 8 bits so it fits the SNARK scalar field. */
export function hashToField(value: Hex): bigint {
  return BigInt(keccak256(value)) >> 8n;
}

/** The signal hash of a mint: the receiving address, packed, hashed to the field (as the contract does). */
export function signalHashOf(receiver: Address): bigint {
  return hashToField(encodePacked(["address"], [receiver]));
}

/** hashToField(hashToField(appId) ‖ action): the external nullifier the ORO contract passes to the router. */
export function externalNullifierHashOf(appId: string, action: string): bigint {
  const appIdHash = hashToField(toHex(stringToBytes(appId)));
  return hashToField(encodePacked(["uint256", "string"], [appIdHash, action]));
}

/** A proof as the ORO `mint` takes it: eight field elements. */
export type WorldIdProof = readonly [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint];

/** The root that development proofs use unless told otherwise (any value works with the mock router). */
export const DEV_MERKLE_ROOT = /*#__PURE__*/ hashToField(toHex(stringToBytes("oro-development-merkle-root")));

/** A stable nullifier hash for a named development human ("alice" is always the same human). */
export function devNullifierHash(humanName: string): bigint {
  return hashToField(toHex(stringToBytes(`oro-development-human:${humanName}`)));
}

export interface DevProofRequest {
  /** The address the ORO will be minted to (the proof's signal). */
  receiver: Address;
  /** Another signal than the receiver, already hashed (a move's 3.0 proof signals the session id). */
  signalHash?: bigint;
  /** The human: a nullifier hash, or use devNullifierHash("name"). */
  nullifierHash: bigint;
  /** World app id and action the token was deployed with. */
  appId: string;
  action: string;
  root?: bigint;
}

export interface DevProof {
  root: bigint;
  nullifierHash: bigint;
  proof: WorldIdProof;
}

/**
 * Builds a proof that the MockWorldIdRouter of development chains accepts (and no real router does):
 *   proof[0] = hashToField(abi.encode(root, groupId, signalHash, nullifierHash, externalNullifierHash)),
 *   proof[1..7] = 0.
 * It binds the receiver, the human and the app/action, so the mock rejects it for any other of them.
 */
export function buildDevProof(request: DevProofRequest): DevProof {
  const root = request.root ?? DEV_MERKLE_ROOT;
  const commitment = hashToField(
    encodeAbiParameters(
      [{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
      [
        root,
        WORLD_ID_GROUP_ID,
        request.signalHash ?? signalHashOf(request.receiver),
        request.nullifierHash,
        externalNullifierHashOf(request.appId, request.action),
      ],
    ),
  );
  return { root, nullifierHash: request.nullifierHash, proof: [commitment, 0n, 0n, 0n, 0n, 0n, 0n, 0n] };
}

// ---------------------------------------------------------------- World ID 4.0

/** World ID 4.0's credential issuer schema for proof of human (Orb), the only one the ORO contract accepts. */
export const PROOF_OF_HUMAN_SCHEMA = 1n;

/** The root development 4.0 proofs are made against (MockWorldIdVerifier.DEV_ROOT). */
export const DEV_WORLD_ID_4_ROOT = /*#__PURE__*/ hashToField(toHex(stringToBytes("oro-development-world-id-4-root")));

/** World ID 4.0's action field: keccak256 of the action string shifted into the field (no app id, unlike 3.0). */
export function worldId4ActionOf(action: string): bigint {
  return hashToField(toHex(stringToBytes(action)));
}

/** An rp id as IDKit writes it (`rp_` + 16 hex digits) as the uint64 the verifier takes. */
export function rpIdOf(rpId: string): bigint {
  if (!/^rp_[0-9a-fA-F]{16}$/.test(rpId)) throw new Error(`an rp id is rp_ followed by 16 hex digits, not ${JSON.stringify(rpId)}`);
  return BigInt(`0x${rpId.slice(3)}`);
}

/** The IDKit signal of an enrolment's uniqueness proof: the receiver and the session the human chose, packed (a 0x
 *  string IDKit hashes as bytes, exactly as the contract's abi.encodePacked). */
export function enrolmentSignalOf(receiver: Address, sessionId: bigint): Hex {
  return encodePacked(["address", "uint256"], [receiver, sessionId]);
}

/** The signal of a 3.0 proof that moves its human to a 4.0 session: the receiver and the session, as the enrolment's. */
export function moveSignalOf(receiver: Address, sessionId: bigint): Hex {
  return enrolmentSignalOf(receiver, sessionId);
}

/**
 * The signal of the session proof that completes an enrolment or a move, asked for after the other proofs: the
 * session's holder names the receiver, the seed half of the session id, the 3.0 human it moves from (0 for none) and
 * the 4.0 human (the enrolment nullifier). With the other proofs naming the session, no proof in the transaction
 * combines with another human's, whoever copies or reorders it (docs/world-id-4.md).
 */
export function enrolmentSessionSignalOf(receiver: Address, sessionSeed: bigint, movedFrom: bigint, human: bigint): Hex {
  return encodePacked(["address", "uint256", "uint256", "uint256"], [receiver, sessionSeed, movedFrom, human]);
}

/** The five field elements of a 4.0 proof (four of the compressed Groth16 proof, then the registry root). */
export type WorldId4Proof = readonly [bigint, bigint, bigint, bigint, bigint];

/** A uniqueness proof as the contract's `UniquenessProof` takes it, with the genesis bound it was requested with. */
export interface UniquenessProof {
  nullifier: bigint;
  nonce: bigint;
  expiresAtMin: bigint;
  credentialGenesisIssuedAtMin: bigint;
  proof: WorldId4Proof;
}

/** A session proof as the contract's `SessionProof` takes it. */
export interface SessionProof {
  sessionId: bigint;
  sessionNullifier: readonly [bigint, bigint];
  nonce: bigint;
  expiresAtMin: bigint;
  proof: WorldId4Proof;
}

/** What a development 4.0 proof states (the verifier's public inputs); sessionId 0 for a uniqueness proof. */
export interface DevWorldId4Inputs {
  nullifier: bigint;
  action: bigint;
  rpId: bigint;
  nonce: bigint;
  signalHash: bigint;
  expiresAtMin: bigint;
  issuerSchemaId?: bigint;
  credentialGenesisIssuedAtMin?: bigint;
  sessionId?: bigint;
  root?: bigint;
}

/**
 * The proof MockWorldIdVerifier accepts for these inputs (and no real verifier does):
 *   proof[0] = hashToField(abi.encode(nullifier, action, rpId, nonce, signalHash, expiresAtMin, issuerSchemaId,
 *                                     credentialGenesisIssuedAtMin, sessionId)), proof[1..3] = 0, proof[4] = root.
 */
export function buildDevWorldId4Proof(inputs: DevWorldId4Inputs): WorldId4Proof {
  const commitment = hashToField(
    encodeAbiParameters(
      ["uint256", "uint256", "uint64", "uint256", "uint256", "uint64", "uint64", "uint256", "uint256"].map((type) => ({ type })),
      [
        inputs.nullifier,
        inputs.action,
        inputs.rpId,
        inputs.nonce,
        inputs.signalHash,
        inputs.expiresAtMin,
        inputs.issuerSchemaId ?? PROOF_OF_HUMAN_SCHEMA,
        inputs.credentialGenesisIssuedAtMin ?? 0n,
        inputs.sessionId ?? 0n,
      ],
    ),
  );
  return [commitment, 0n, 0n, 0n, inputs.root ?? DEV_WORLD_ID_4_ROOT];
}

/** A development human's 4.0 uniqueness nullifier for (rp id, action): deterministic, as World's OPRF is. */
export function devWorldId4Nullifier(humanName: string, rpId: bigint, action: bigint): bigint {
  return hashToField(encodePacked(["string", "uint64", "uint256"], [`oro-development-world-id-4:${humanName}`, rpId, action]));
}

/** A development session id (commitment) for a human and a seed: a human may create several sessions. */
export function devSessionId(humanName: string, seed: bigint): bigint {
  return hashToField(encodePacked(["string", "uint256"], [`oro-development-session:${humanName}`, seed]));
}

/** A development session's OPRF seed: random-looking, with World's session seed prefix byte 0x01. */
export function devSessionSeed(humanName: string, seed: bigint): bigint {
  return (hashToField(encodePacked(["string", "uint256"], [`oro-development-session-seed:${humanName}`, seed])) & ((1n << 248n) - 1n)) | (1n << 248n);
}

/** A fresh session nullifier: [nullifier, random action with World's session prefix byte 0x02]. */
export function devSessionNullifier(random: bigint): readonly [bigint, bigint] {
  const nullifier = hashToField(encodePacked(["string", "uint256"], ["oro-development-session-nullifier", random]));
  const action = (hashToField(encodePacked(["string", "uint256"], ["oro-development-session-action", random])) & ((1n << 248n) - 1n)) | (2n << 248n);
  return [nullifier, action];
}

/** The settings development 4.0 proofs are made for (a deployment's rp id and enrolment action, as field elements). */
export interface DevWorldId4Settings {
  rpId: bigint;
  enrolmentAction: bigint;
}

/**
 * A development session proof of `sessionId` (fresh session nullifier from `random`) for a claim to `receiver`, or,
 * given `signal`, for that signal (an enrolment's: enrolmentSessionSignalOf).
 */
export function devSessionProof(
  sessionId: bigint,
  receiver: Address,
  settings: DevWorldId4Settings,
  expiresAtMin: bigint,
  random: bigint,
  genesisMin = 0n,
  signal?: Hex,
): SessionProof {
  const sessionNullifier = devSessionNullifier(random);
  const nonce = hashToField(encodePacked(["string", "uint256"], ["oro-development-nonce", random]));
  const signalHash = signal === undefined ? signalHashOf(receiver) : hashToField(signal);
  const proof = buildDevWorldId4Proof({
    nullifier: sessionNullifier[0], action: sessionNullifier[1], rpId: settings.rpId, nonce, signalHash,
    expiresAtMin, credentialGenesisIssuedAtMin: genesisMin, sessionId,
  });
  return { sessionId, sessionNullifier, nonce, expiresAtMin, proof };
}

/**
 * A development human's enrolment (or, with `movedFrom`, a move's 4.0 part): a new session (seeded), their
 * uniqueness proof for the enrolment action (signal `receiver ‖ sessionId`) and the session proof that completes it
 * (signal enrolmentSessionSignalOf), both with `genesisMin` as the credential's genesis bound.
 */
export function devEnrolmentProofs(
  humanName: string,
  receiver: Address,
  seed: bigint,
  settings: DevWorldId4Settings,
  expiresAtMin: bigint,
  genesisMin: bigint,
  movedFrom = 0n,
): { sessionId: bigint; sessionSeed: bigint; uniqueness: UniquenessProof; session: SessionProof } {
  const sessionId = devSessionId(humanName, seed);
  const sessionSeed = devSessionSeed(humanName, seed);
  const nullifier = devWorldId4Nullifier(humanName, settings.rpId, settings.enrolmentAction);
  const nonce = hashToField(encodePacked(["string", "uint256"], [`oro-development-enrolment:${humanName}`, seed]));
  const proof = buildDevWorldId4Proof({
    nullifier, action: settings.enrolmentAction, rpId: settings.rpId, nonce,
    signalHash: hashToField(enrolmentSignalOf(receiver, sessionId)), expiresAtMin, credentialGenesisIssuedAtMin: genesisMin,
  });
  const session = devSessionProof(
    sessionId, receiver, settings, expiresAtMin, seed ^ BigInt(keccak256(stringToHex(humanName))), genesisMin,
    enrolmentSessionSignalOf(receiver, sessionSeed, movedFrom, nullifier),
  );
  return { sessionId, sessionSeed, uniqueness: { nullifier, nonce, expiresAtMin, credentialGenesisIssuedAtMin: genesisMin, proof }, session };
}

// ------------------------------------------------ IDKit 4 results → the contract's proofs

/** A nullifier hash in the one text form the indexer and the API store and answer: 0x plus 64 lower-case hex digits. */
export function nullifierHashToHex(nullifierHash: bigint | Hex): Hex {
  return toHex(BigInt(nullifierHash), { size: 32 });
}

/**
 * Which IDKit request the API signs: the 3.0 claim action, World ID 4.0's enrolment action, or a session proof
 * (IDKit's createSession/proveSession, whose signature covers no action).
 */
export const WORLD_ID_REQUEST_KINDS = ["claim", "enrolment", "session"] as const;
export type WorldIdRequestKind = (typeof WORLD_ID_REQUEST_KINDS)[number];

/** The request context IDKit 4 takes as `rp_context`, as the API signs it: who asks (the relying party), and until when. */
export interface SignedWorldIdRequest {
  rp_id: string;
  nonce: string;
  created_at: number;
  expires_at: number;
  signature: string;
  /** The action the signature covers; null for a session request. */
  action: string | null;
}

/** A 4.0 uniqueness response item as IDKit 4 returns it (`ResponseItemV4`). */
export interface IdkitUniquenessItem {
  nullifier: string;
  proof: readonly string[];
  expires_at_min: number;
}

/** A session response item as IDKit 4 returns it (`ResponseItemSession`). */
export interface IdkitSessionItem {
  session_nullifier: readonly string[];
  proof: readonly string[];
  expires_at_min: number;
}

/** A field element IDKit wrote as 0x hex or decimal (or a protocol `nil_` nullifier). */
function fieldOf(value: string, what: string): bigint {
  const text = value.startsWith("nil_") ? `0x${value.slice(4)}` : value;
  try {
    return BigInt(text);
  } catch {
    throw new Error(`IDKit's ${what} is not a number: ${JSON.stringify(value)}`);
  }
}

function proofOf(values: readonly string[]): WorldId4Proof {
  if (values.length !== 5) throw new Error(`a World ID 4.0 proof has 5 elements, not ${values.length}`);
  const field = (index: number) => fieldOf(values[index] ?? "", `proof[${index}]`);
  return [field(0), field(1), field(2), field(3), field(4)];
}

/**
 * The contract's UniquenessProof from IDKit's response item, the request's nonce (the result's `nonce`) and the
 * genesis bound the request asked for (a public input IDKit does not echo).
 */
export function uniquenessProofFromIdkit(item: IdkitUniquenessItem, nonce: string, genesisMin: bigint): UniquenessProof {
  return {
    nullifier: fieldOf(item.nullifier, "nullifier"),
    nonce: fieldOf(nonce, "nonce"),
    expiresAtMin: BigInt(item.expires_at_min),
    credentialGenesisIssuedAtMin: genesisMin,
    proof: proofOf(item.proof),
  };
}

/** The contract's SessionProof from IDKit's session id, response item and the request's nonce. */
export function sessionProofFromIdkit(idkitSessionId: string, item: IdkitSessionItem, nonce: string): SessionProof {
  if (item.session_nullifier.length !== 2) throw new Error("a session nullifier has two elements");
  const [nullifier = "", action = ""] = item.session_nullifier;
  return {
    sessionId: sessionIdOf(idkitSessionId),
    sessionNullifier: [fieldOf(nullifier, "session nullifier"), fieldOf(action, "session action")],
    nonce: fieldOf(nonce, "nonce"),
    expiresAtMin: BigInt(item.expires_at_min),
    proof: proofOf(item.proof),
  };
}
