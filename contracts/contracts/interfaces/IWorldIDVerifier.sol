// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice The two entry points of World ID 4.0's verifier (World's IWorldIDVerifier, V2 semantics) that ORO calls.
///         Both revert on an invalid proof and return nothing on a valid one. Their parameters are the circuit's
///         public inputs: the caller pins every one that says what the proof is for.
interface IWorldIDVerifier {
    /// @notice A uniqueness proof: one `nullifier` per (human, rpId, action). The action's top byte must be 0x00.
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
    ) external view;

    /// @notice A session proof: the holder of `sessionId` is present. `sessionNullifier` = [nullifier, random action
    ///         whose top byte is 0x02], fresh for every proof.
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
    ) external view;
}
