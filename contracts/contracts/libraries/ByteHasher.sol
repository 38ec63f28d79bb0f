// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice World ID's hash-to-field: keccak256 shifted right by 8 bits so the result fits the SNARK field.
library ByteHasher {
    function hashToField(bytes memory value) internal pure returns (uint256) {
        return uint256(keccak256(value)) >> 8;
    }
}
