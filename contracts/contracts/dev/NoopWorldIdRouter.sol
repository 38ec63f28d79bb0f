// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IWorldID} from "../interfaces/IWorldID.sol";

/// @title NoopWorldIdRouter
/// @notice Accepts every proof. Used only by the gas benchmark, so that mint gas is compared with the
///         reference figures (measured with a no-op verifier) on equal terms. Never deployed by the deploy script.
contract NoopWorldIdRouter is IWorldID {
    function verifyProof(uint256, uint256, uint256, uint256, uint256, uint256[8] calldata) external pure {}
}
