// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title TestModeFaucet
/// @notice The app's "test mode" contract: a no-argument `claim()` that pays a fixed amount of ORO from
///         its own balance, so the claim UI can be exercised without a World ID proof. Development chains
///         only: the deploy script refuses to deploy it on World Chain (480), and it only ever pays out
///         what a developer funded it with.
contract TestModeFaucet {
    using SafeERC20 for IERC20;

    IERC20 public immutable token;
    uint256 public immutable amountPerClaim;

    event FaucetClaimed(address indexed account, uint256 amount);

    constructor(IERC20 token_, uint256 amountPerClaim_) {
        token = token_;
        amountPerClaim = amountPerClaim_;
    }

    /// @notice Pays `amountPerClaim` to the caller; reverts with the token's own error when the faucet is empty.
    function claim() external {
        emit FaucetClaimed(msg.sender, amountPerClaim);
        token.safeTransfer(msg.sender, amountPerClaim);
    }
}
