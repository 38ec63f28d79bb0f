// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IWorldID} from "../interfaces/IWorldID.sol";
import {ByteHasher} from "../libraries/ByteHasher.sol";

/// @title MockWorldIdRouter
/// @notice Stands in for World's router on development chains. It does not accept everything: a proof is
///         valid only if it follows the development scheme below, so invalid-proof paths stay testable.
///
///         Development proof scheme (mirrored by buildDevProof in the clients package):
///           proof[0] = hashToField(abi.encode(root, groupId, signalHash, nullifierHash, externalNullifierHash))
///           proof[1..7] = 0
///         where hashToField(x) = uint256(keccak256(x)) >> 8. Anything else reverts with InvalidProof().
contract MockWorldIdRouter is IWorldID {
    using ByteHasher for bytes;

    error InvalidProof();

    function verifyProof(
        uint256 root,
        uint256 groupId,
        uint256 signalHash,
        uint256 nullifierHash,
        uint256 externalNullifierHash,
        uint256[8] calldata proof
    ) external pure {
        uint256 commitment = abi.encode(root, groupId, signalHash, nullifierHash, externalNullifierHash).hashToField();
        if (proof[0] != commitment) revert InvalidProof();
        for (uint256 i = 1; i < 8; ++i) {
            if (proof[i] != 0) revert InvalidProof();
        }
    }
}
