// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";

/// @title WorldIdVerifierProxy
/// @notice An EIP-1967 proxy like the one World's verifier sits behind, for the tests of the deploy's inspection (which
///         implementation the proxy points at, and whether it behaves as World's V1 or V2). Never deployed by the deploy.
contract WorldIdVerifierProxy is ERC1967Proxy {
    /// @dev OpenZeppelin's proxy refuses an empty initialisation call; a read of the mock's version stands in for one.
    constructor(address implementation) ERC1967Proxy(implementation, abi.encodeWithSignature("version()")) {}
}
