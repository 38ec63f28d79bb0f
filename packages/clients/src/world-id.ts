import { encodeAbiParameters, encodePacked, keccak256, stringToBytes, toHex, type Address, type Hex } from "viem";

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
export const DEV_MERKLE_ROOT = hashToField(toHex(stringToBytes("oro-development-merkle-root")));

/** A stable nullifier hash for a named development human ("alice" is always the same human). */
export function devNullifierHash(humanName: string): bigint {
  return hashToField(toHex(stringToBytes(`oro-development-human:${humanName}`)));
}

export interface DevProofRequest {
  /** The address the ORO will be minted to (the proof's signal). */
  receiver: Address;
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
        signalHashOf(request.receiver),
        request.nullifierHash,
        externalNullifierHashOf(request.appId, request.action),
      ],
    ),
  );
  return { root, nullifierHash: request.nullifierHash, proof: [commitment, 0n, 0n, 0n, 0n, 0n, 0n, 0n] };
}
