// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title ReferralClaim
/// @notice Pays referral rewards in ORO from its own balance against vouchers that the backend signs
///         off-chain (EIP-712; the domain binds this chain and this contract). Anyone may submit a voucher,
///         the payment always goes to the voucher's account, and each nonce pays once.
contract ReferralClaim is EIP712, Ownable2Step, Pausable {
    using SafeERC20 for IERC20;

    struct Voucher {
        address account;
        uint256 amount;
        uint256 nonce;
    }

    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(address account,uint256 amount,uint256 nonce)");

    /// @notice The token paid out (ORO).
    IERC20 public immutable token;
    /// @notice The backend key whose signatures are honoured.
    address public signer;
    /// @notice Used nonces, one bit each: word `nonce >> 8`, bit `nonce & 0xff` (as Permit2's unordered nonces).
    mapping(uint256 wordIndex => uint256 bits) public nonceBitmap;

    event VoucherClaimed(address indexed account, uint256 indexed nonce, uint256 amount, address indexed submitter);
    event SignerUpdated(address oldSigner, address newSigner);
    event Swept(address indexed to, uint256 amount);

    /// @notice The voucher was signed by `recovered`, which is not the current signer.
    error WrongSigner(address recovered, address expected);
    error VoucherAlreadyClaimed(uint256 nonce);
    /// @notice The signature is not a well-formed 65-byte ECDSA signature with a low s and v of 27 or 28.
    error MalformedSignature();
    error InvalidSigner();
    error InvalidToken();

    constructor(IERC20 token_, address signer_, address initialOwner)
        EIP712("ORO ReferralClaim", "1")
        Ownable(initialOwner)
    {
        if (address(token_) == address(0)) revert InvalidToken();
        token = token_;
        _setSigner(signer_);
    }

    /// @notice Pays `voucher.amount` to `voucher.account` if the current signer signed it and its nonce is unused.
    function claim(Voucher calldata voucher, bytes calldata signature) external whenNotPaused {
        address recovered = _recover(_digest(voucher), signature);
        if (recovered != signer) revert WrongSigner(recovered, signer);

        (uint256 wordIndex, uint256 bit) = _nonceBit(voucher.nonce);
        uint256 word = nonceBitmap[wordIndex];
        if (word & bit != 0) revert VoucherAlreadyClaimed(voucher.nonce);
        nonceBitmap[wordIndex] = word | bit;

        emit VoucherClaimed(voucher.account, voucher.nonce, voucher.amount, msg.sender);
        token.safeTransfer(voucher.account, voucher.amount);
    }

    /// @notice What `claim` would see, without sending anything: the bitmap word of the nonce, whether the
    ///         nonce was used, the EIP-712 digest and the address the signature recovers to (zero if the
    ///         signature is malformed). The voucher is claimable when `!wasClaimed && recovered == signer`.
    function previewClaim(address account, uint256 amount, uint256 nonce, bytes calldata signature)
        external
        view
        returns (uint256 nonceId, bool wasClaimed, bytes32 digest, address recovered)
    {
        uint256 bit;
        (nonceId, bit) = _nonceBit(nonce);
        wasClaimed = nonceBitmap[nonceId] & bit != 0;
        digest = _digest(Voucher(account, amount, nonce));
        (recovered,,) = ECDSA.tryRecoverCalldata(digest, signature);
    }

    /// @notice True when `nonce` was used.
    function isNonceUsed(uint256 nonce) external view returns (bool) {
        (uint256 wordIndex, uint256 bit) = _nonceBit(nonce);
        return nonceBitmap[wordIndex] & bit != 0;
    }

    /// @notice The EIP-712 domain separator (chain id and this contract's address).
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    // ---------------------------------------------------------------- owner

    /// @notice Rotates the backend key. Vouchers signed by the old key stop paying at once.
    function setSigner(address newSigner) external onlyOwner {
        _setSigner(newSigner);
    }

    function pause() external onlyOwner {
        _pause();
    }

    function unpause() external onlyOwner {
        _unpause();
    }

    /// @notice Sends unclaimed funds back (for example when the programme ends).
    function sweep(address to, uint256 amount) external onlyOwner {
        emit Swept(to, amount);
        token.safeTransfer(to, amount);
    }

    // ---------------------------------------------------------------- internals

    function _setSigner(address newSigner) private {
        if (newSigner == address(0)) revert InvalidSigner();
        emit SignerUpdated(signer, newSigner);
        signer = newSigner;
    }

    function _digest(Voucher memory voucher) private view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(VOUCHER_TYPEHASH, voucher.account, voucher.amount, voucher.nonce)));
    }

    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address recovered) {
        ECDSA.RecoverError error;
        (recovered, error,) = ECDSA.tryRecoverCalldata(digest, signature);
        if (error != ECDSA.RecoverError.NoError) revert MalformedSignature();
    }

    function _nonceBit(uint256 nonce) private pure returns (uint256 wordIndex, uint256 bit) {
        wordIndex = nonce >> 8;
        bit = 1 << (nonce & 0xff);
    }
}
