// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IWorldIDVerifier} from "../interfaces/IWorldIDVerifier.sol";

/// @title NoopWorldIdVerifier
/// @notice Accepts every World ID 4.0 proof. Used only by the gas benchmark, so that the 4.0 claim is compared with
///         the 3.0 mint on equal terms (both with a no-op verifier). Never deployed by the deploy script.
contract NoopWorldIdVerifier is IWorldIDVerifier {
    function verify(uint256, uint256, uint64, uint256, uint256, uint64, uint64, uint256, uint256[5] calldata)
        external
        pure
    {}

    function verifySession(
        uint64,
        uint256,
        uint256,
        uint64,
        uint64,
        uint256,
        uint256,
        uint256[2] calldata,
        uint256[5] calldata
    ) external pure {}
}
