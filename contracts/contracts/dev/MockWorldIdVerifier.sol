// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IWorldIDVerifier} from "../interfaces/IWorldIDVerifier.sol";
import {ByteHasher} from "../libraries/ByteHasher.sol";

/// @title MockWorldIdVerifier
/// @notice Stands in for World's World ID 4.0 verifier (WorldIDVerifierV2) on development chains, with its interface
///         and its revert semantics, in its order: the action's prefix byte (0x00 for uniqueness, 0x02 for session
///         proofs: InvalidAction), a valid registry root in proof[4] (InvalidMerkleRoot), a registered credential
///         issuer schema (UnregisteredIssuerSchemaId; proof of human 1, selfie 11 and passport 9303 are registered, so
///         a caller that does not pin the schema is caught), the expiry threshold (ExpirationTooOld, 5 hours as in
///         World's production config), then the proof (ProofInvalid). It accepts only development proofs:
///           proof[0] = hashToField(abi.encode(nullifier, action, rpId, nonce, signalHash, expiresAtMin,
///                                             issuerSchemaId, credentialGenesisIssuedAtMin, sessionId))
///           proof[1..3] = 0, proof[4] = DEV_ROOT
///         (sessionId is 0 for uniqueness proofs), mirrored by buildDevUniquenessProof / buildDevSessionProof in the
///         clients package. A development proof also states the credential's genesis: a request whose
///         credentialGenesisIssuedAtMin is later than the human's genesis cannot be made (the simulator refuses it).
contract MockWorldIdVerifier is IWorldIDVerifier {
    using ByteHasher for bytes;

    /// @notice The one registry root development proofs are made against.
    uint256 public constant DEV_ROOT = uint256(keccak256("oro-development-world-id-4-root")) >> 8;
    /// @notice World's production `minExpirationThreshold`.
    uint64 public constant MIN_EXPIRATION_THRESHOLD = 5 hours;

    error InvalidAction();
    error InvalidMerkleRoot();
    error UnregisteredIssuerSchemaId();
    error ExpirationTooOld();
    error ProofInvalid();

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
        if (uint8(action >> 248) != 0) revert InvalidAction();
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
        if (uint8(sessionNullifier[1] >> 248) != 2) revert InvalidAction();
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
        if (zeroKnowledgeProof[4] != DEV_ROOT) revert InvalidMerkleRoot();
        if (issuerSchemaId != 1 && issuerSchemaId != 11 && issuerSchemaId != 9303) revert UnregisteredIssuerSchemaId();
        if (uint256(expiresAtMin) + MIN_EXPIRATION_THRESHOLD < block.timestamp) revert ExpirationTooOld();
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
