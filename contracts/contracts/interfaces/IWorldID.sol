// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice The World ID router's verification entry point (the same signature as World's WorldIDRouter).
interface IWorldID {
    /// @dev Reverts when the proof is invalid; returns nothing when it is valid.
    function verifyProof(
        uint256 root,
        uint256 groupId,
        uint256 signalHash,
        uint256 nullifierHash,
        uint256 externalNullifierHash,
        uint256[8] calldata proof
    ) external view;
}
