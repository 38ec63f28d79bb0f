// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IWorldIDVerifier} from "../interfaces/IWorldIDVerifier.sol";
import {ByteHasher} from "../libraries/ByteHasher.sol";

/// @title MockWorldIdVerifier
/// @notice Stands in for World's World ID 4.0 verifier on development chains, as either of the two implementations
///         World's proxy may point at (world-id-protocol `WorldIDVerifier.sol`, V1, recorded in World's production
///         deployment; `WorldIDVerifierV2.sol`, V2, which adds the action prefix check). It has their interface and
///         their revert semantics, in their order:
///           V2 only: the action's prefix byte (0x00 for uniqueness, 0x02 for session proofs): InvalidAction;
///           a valid registry root in proof[4]: InvalidMerkleRoot;
///           a registered credential issuer schema (1 proof of human, 11 selfie, 9303 passport are registered, so a
///             caller that does not pin the schema is caught): UnregisteredIssuerSchemaId;
///           the rp id's OPRF key (OprfKeyRegistry.getOprfPublicKey(uint160(rpId))): UnknownId for an unknown rp id;
///           the expiry threshold, added in uint64 as World's code does (`expiresAtMin + threshold` overflows, a
///             panic, for an expiry near 2^64): ExpirationTooOld (5 hours, World's production config);
///           every public input an element of the SNARK field: PublicInputNotInField;
///           then the proof: ProofInvalid.
///         It accepts only development proofs:
///           proof[0] = hashToField(abi.encode(nullifier, action, rpId, nonce, signalHash, expiresAtMin,
///                                             issuerSchemaId, credentialGenesisIssuedAtMin, sessionId))
///           proof[1..3] = 0, proof[4] = DEV_ROOT
///         (sessionId is 0 for uniqueness proofs), mirrored by buildDevWorldId4Proof in the clients package. A
///         development proof also states the credential's genesis: a request whose credentialGenesisIssuedAtMin is
///         later than the human's genesis cannot be made (the simulator refuses it).
contract MockWorldIdVerifier is IWorldIDVerifier {
    using ByteHasher for bytes;

    /// @notice Which of World's implementations this one behaves as.
    enum Version {
        V1,
        V2
    }

    /// @notice The one registry root development proofs are made against.
    uint256 public constant DEV_ROOT = uint256(keccak256("oro-development-world-id-4-root")) >> 8;
    /// @notice World's production `minExpirationThreshold`.
    uint64 public constant MIN_EXPIRATION_THRESHOLD = 5 hours;
    /// @dev The BN254 scalar field, which every public input of World's circuit must be an element of.
    uint256 private constant SNARK_SCALAR_FIELD =
        21888242871839275222246405745257275088548364400416034343698204186575808495617;

    Version public immutable version;
    /// @notice The rp ids with an OPRF key (World's RpRegistry registers one per relying party).
    mapping(uint64 rpId => bool) public hasOprfKey;

    error InvalidAction();
    error InvalidMerkleRoot();
    error UnregisteredIssuerSchemaId();
    error ExpirationTooOld();
    error PublicInputNotInField();
    error ProofInvalid();
    /// @notice OprfKeyRegistry's answer for an rp id without a key.
    error UnknownId(uint160 id);

    constructor(Version version_, uint64[] memory rpIds) {
        version = version_;
        for (uint256 i = 0; i < rpIds.length; i++) {
            hasOprfKey[rpIds[i]] = true;
        }
    }

    function verify(
        uint256 nullifier,
        uint256 action,
        uint64 rpId,
        uint256 nonce,
        uint256 signalHash,
        uint64 expiresAtMin,
        uint64 issuerSchemaId,
        uint256 credentialGenesisIssuedAtMin,
        uint256[5] calldata zeroKnowledgeProof
    ) external view {
        if (version == Version.V2 && uint8(action >> 248) != 0) revert InvalidAction();
        _verify(
            nullifier,
            action,
            rpId,
            nonce,
            signalHash,
            expiresAtMin,
            issuerSchemaId,
            credentialGenesisIssuedAtMin,
            0,
            zeroKnowledgeProof
        );
    }

    function verifySession(
        uint64 rpId,
        uint256 nonce,
        uint256 signalHash,
        uint64 expiresAtMin,
        uint64 issuerSchemaId,
        uint256 credentialGenesisIssuedAtMin,
        uint256 sessionId,
        uint256[2] calldata sessionNullifier,
        uint256[5] calldata zeroKnowledgeProof
    ) external view {
        if (version == Version.V2 && uint8(sessionNullifier[1] >> 248) != 2) revert InvalidAction();
        _verify(
            sessionNullifier[0],
            sessionNullifier[1],
            rpId,
            nonce,
            signalHash,
            expiresAtMin,
            issuerSchemaId,
            credentialGenesisIssuedAtMin,
            sessionId,
            zeroKnowledgeProof
        );
    }

    function _verify(
        uint256 nullifier,
        uint256 action,
        uint64 rpId,
        uint256 nonce,
        uint256 signalHash,
        uint64 expiresAtMin,
        uint64 issuerSchemaId,
        uint256 credentialGenesisIssuedAtMin,
        uint256 sessionId,
        uint256[5] calldata zeroKnowledgeProof
    ) private view {
        uint256 root = zeroKnowledgeProof[4];
        if (root != DEV_ROOT) revert InvalidMerkleRoot();
        if (issuerSchemaId != 1 && issuerSchemaId != 11 && issuerSchemaId != 9303) revert UnregisteredIssuerSchemaId();
        if (!hasOprfKey[rpId]) revert UnknownId(uint160(rpId));
        // uint64 arithmetic, as World's verifier: an expiry near 2^64 overflows (a panic), it does not pass.
        if (uint256(expiresAtMin + MIN_EXPIRATION_THRESHOLD) < block.timestamp) revert ExpirationTooOld();
        if (
            nullifier >= SNARK_SCALAR_FIELD || credentialGenesisIssuedAtMin >= SNARK_SCALAR_FIELD
                || action >= SNARK_SCALAR_FIELD || signalHash >= SNARK_SCALAR_FIELD || nonce >= SNARK_SCALAR_FIELD
                || sessionId >= SNARK_SCALAR_FIELD
        ) revert PublicInputNotInField();
        uint256 commitment = abi.encode(
            nullifier,
            action,
            rpId,
            nonce,
            signalHash,
            expiresAtMin,
            issuerSchemaId,
            credentialGenesisIssuedAtMin,
            sessionId
        ).hashToField();
        if (
            zeroKnowledgeProof[0] != commitment || zeroKnowledgeProof[1] != 0 || zeroKnowledgeProof[2] != 0
                || zeroKnowledgeProof[3] != 0
        ) revert ProofInvalid();
    }
}
