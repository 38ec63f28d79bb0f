// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IWorldID} from "./interfaces/IWorldID.sol";
import {ByteHasher} from "./libraries/ByteHasher.sol";

/// @title ORO
/// @notice ERC20 that every verified human (World ID, keyed by nullifier hash) may mint once per
///         `waitBetweenMints`. The owner tunes the amount, the wait and the external nullifier until the
///         killswitch is pulled; after that no mint can succeed and no owner power remains.
/// @dev The ERC20 core is written here rather than inherited from OpenZeppelin's ERC20 because OZ keeps
///      `_totalSupply` in a private slot of its own: packing the supply with the mint settings saves a cold
///      storage read on every mint, the hottest path of the product. Errors and interfaces are OZ's.
contract Oro is IERC20Metadata, IERC20Errors, Ownable2Step {
    using ByteHasher for bytes;

    /// @notice World ID's Orb group; the only group whose proofs mint.
    uint256 public constant GROUP_ID = 1;

    /// @dev Everything a mint reads and writes globally, in one slot: one cold read, one write per mint.
    struct MintState {
        uint128 totalSupply;
        uint80 amountPerMint;
        uint40 waitBetweenMints;
        bool killed;
    }

    /// @dev One slot per human. `lastMintedAt` fits uint40 until the year 36812.
    struct MintData {
        uint40 lastMintedAt;
        uint32 numOfMints;
    }

    /// @notice The World ID router that verifies proofs, fixed at deployment.
    IWorldID public immutable worldId;
    /// @notice The only chain on which minting works; a fork or a replay on another chain cannot mint.
    uint256 public immutable expectedChainId;

    MintState private _mintState;
    /// @notice hashToField(hashToField(appId) ‖ action): the proof's external nullifier.
    uint256 public externalNullifierHash;
    /// @notice Per human: when they last minted and how many times they have minted.
    mapping(uint256 nullifierHash => MintData) public nullifierHashMintData;

    mapping(address account => uint256) private _balances;
    mapping(address account => mapping(address spender => uint256)) private _allowances;

    /// @dev nullifierHash is data, not a topic: a topic costs 119 gas more on every mint, and indexers read it anyway.
    event Minted(address indexed receiver, uint256 nullifierHash, uint256 amount, uint256 numOfMints);
    event AmountPerMintUpdated(uint256 oldAmountPerMint, uint256 newAmountPerMint);
    event WaitBetweenMintsUpdated(uint256 oldWaitBetweenMints, uint256 newWaitBetweenMints);
    event ExternalNullifierUpdated(
        uint256 oldExternalNullifierHash, uint256 newExternalNullifierHash, string appId, string action
    );
    event Killswitched(address indexed by);

    /// @notice Not enough time since the last mint of this human: the next mint opens at lastMintedAt + wait.
    error NotEnoughTimeSinceLastMint(uint256 lastMintedAt, uint256 waitBetweenMints);
    /// @notice The transaction is not on the network this token was deployed for.
    error NotOnExpectedNetwork(uint256 expectedChainId, uint256 actualChainId);
    /// @notice The killswitch was pulled: minting is over for good.
    error MintingKilled();
    error InvalidAmountPerMint(uint256 amountPerMint);
    error InvalidWaitBetweenMints(uint256 waitBetweenMints);
    /// @notice The World ID router address has no code (the zero address included).
    error InvalidWorldId();
    error SupplyOverflow();
    error MintCountOverflow();

    constructor(
        IWorldID worldId_,
        string memory appId,
        string memory action,
        uint256 expectedChainId_,
        uint256 amountPerMint_,
        uint256 waitBetweenMints_,
        address initialOwner
    ) Ownable(initialOwner) {
        // The mint path calls the router without Solidity's EXTCODESIZE guard, and a call to an address
        // without code succeeds: such a router would accept every proof, so it is refused here once.
        if (address(worldId_).code.length == 0) revert InvalidWorldId();
        worldId = worldId_;
        expectedChainId = expectedChainId_;
        _setAmountPerMint(amountPerMint_);
        _setWaitBetweenMints(waitBetweenMints_);
        _setExternalNullifier(appId, action);
    }

    // ---------------------------------------------------------------- minting

    /// @notice Mints `amountPerMint` to the caller. The proof's signal must be the caller's address.
    function mint(uint256 root, uint256 nullifierHash, uint256[8] calldata proof) external returns (uint256) {
        return _mintTo(root, nullifierHash, proof, msg.sender);
    }

    /// @notice Mints `amountPerMint` to `receiver`. The proof's signal must be `receiver`, so a proof
    ///         seen in the mempool cannot be redirected to another address.
    function mint(uint256 root, uint256 nullifierHash, uint256[8] calldata proof, address receiver)
        external
        returns (uint256)
    {
        if (receiver == address(0)) revert ERC20InvalidReceiver(address(0));
        return _mintTo(root, nullifierHash, proof, receiver);
    }

    function _mintTo(uint256 root, uint256 nullifierHash, uint256[8] calldata proof, address receiver)
        private
        returns (uint256 amount)
    {
        if (block.chainid != expectedChainId) revert NotOnExpectedNetwork(expectedChainId, block.chainid);

        // The hot path reads each packed slot once and writes it once, as whole words. Layouts follow the
        // struct declarations: MintState = totalSupply | amountPerMint << 128 | waitBetweenMints << 208 |
        // killed << 248, and MintData = lastMintedAt | numOfMints << 40.
        MintData storage mintData = nullifierHashMintData[nullifierHash];
        MintState storage mintState = _mintState;
        uint256 stateWord;
        uint256 dataWord;
        assembly ("memory-safe") {
            stateWord := sload(mintState.slot)
            dataWord := sload(mintData.slot)
        }
        if (stateWord >> 248 != 0) revert MintingKilled();

        uint256 wait = (stateWord >> 208) & type(uint40).max;
        uint256 lastMintedAt = dataWord & type(uint40).max;
        uint256 numOfMints;
        uint256 newSupply;
        // Unchecked: lastMintedAt is a past block timestamp, numOfMints < 2^32 and both supply terms < 2^128,
        // so none of these can wrap; the range checks below keep the packed fields inside their bits.
        unchecked {
            if (block.timestamp - lastMintedAt < wait) revert NotEnoughTimeSinceLastMint(lastMintedAt, wait);

            _verifyProof(root, nullifierHash, proof, receiver);

            numOfMints = (dataWord >> 40) + 1;
            amount = (stateWord >> 128) & type(uint80).max;
            newSupply = (stateWord & type(uint128).max) + amount;
        }
        if (numOfMints > type(uint32).max) revert MintCountOverflow();
        // 2^128 wei is 3.4e20 ORO: unreachable, but the packed supply must never spill into the settings.
        if (newSupply > type(uint128).max) revert SupplyOverflow();

        assembly ("memory-safe") {
            sstore(mintData.slot, or(timestamp(), shl(40, numOfMints)))
            sstore(mintState.slot, or(newSupply, shl(128, shr(128, stateWord))))
        }
        // Cannot overflow: every balance is at most the total supply, which fits in uint128.
        unchecked {
            _balances[receiver] += amount;
        }

        emit Transfer(address(0), receiver, amount);
        emit Minted(receiver, nullifierHash, amount, numOfMints);
    }

    /// @dev Calls worldId.verifyProof(root, GROUP_ID, signalHash, nullifierHash, externalNullifierHash, proof)
    ///      with hand-built calldata (no ABI encoder allocation, no extra EXTCODESIZE) and bubbles up the
    ///      router's revert data, so its own error (for example InvalidProof) reaches the caller unchanged.
    function _verifyProof(uint256 root, uint256 nullifierHash, uint256[8] calldata proof, address receiver)
        private
        view
    {
        IWorldID router = worldId;
        uint256 externalNullifier = externalNullifierHash;
        bytes4 selector = IWorldID.verifyProof.selector;
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            // signalHash = hashToField(abi.encodePacked(receiver))
            mstore(0x00, shl(96, receiver))
            let signalHash := shr(8, keccak256(0x00, 20))
            mstore(ptr, selector)
            mstore(add(ptr, 0x04), root)
            mstore(add(ptr, 0x24), 1) // GROUP_ID
            mstore(add(ptr, 0x44), signalHash)
            mstore(add(ptr, 0x64), nullifierHash)
            mstore(add(ptr, 0x84), externalNullifier)
            calldatacopy(add(ptr, 0xa4), proof, 0x100)
            if iszero(staticcall(gas(), router, ptr, 0x1a4, 0x00, 0x00)) {
                returndatacopy(ptr, 0x00, returndatasize())
                revert(ptr, returndatasize())
            }
        }
    }

    // ---------------------------------------------------------------- owner

    function setAmountPerMint(uint256 newAmountPerMint) external onlyOwner {
        _setAmountPerMint(newAmountPerMint);
    }

    function setWaitBetweenMints(uint256 newWaitBetweenMints) external onlyOwner {
        _setWaitBetweenMints(newWaitBetweenMints);
    }

    /// @notice Points minting at another World ID app or action; proofs for the old one stop working.
    function setExternalNullifier(string calldata appId, string calldata action) external onlyOwner {
        _setExternalNullifier(appId, action);
    }

    /// @notice Irreversibly ends minting and gives up ownership. Frozen for ever: mint (both forms), the
    ///         amount per mint, the wait, the external nullifier and ownership itself. Untouched: balances,
    ///         transfers, approvals, and every read (the mint history stays readable).
    function killswitch() external onlyOwner {
        _mintState.killed = true;
        emit Killswitched(msg.sender);
        _transferOwnership(address(0));
    }

    function _setAmountPerMint(uint256 newAmountPerMint) private {
        if (newAmountPerMint == 0 || newAmountPerMint > type(uint80).max) {
            revert InvalidAmountPerMint(newAmountPerMint);
        }
        emit AmountPerMintUpdated(_mintState.amountPerMint, newAmountPerMint);
        _mintState.amountPerMint = uint80(newAmountPerMint);
    }

    function _setWaitBetweenMints(uint256 newWaitBetweenMints) private {
        if (newWaitBetweenMints == 0 || newWaitBetweenMints > type(uint40).max) {
            revert InvalidWaitBetweenMints(newWaitBetweenMints);
        }
        emit WaitBetweenMintsUpdated(_mintState.waitBetweenMints, newWaitBetweenMints);
        _mintState.waitBetweenMints = uint40(newWaitBetweenMints);
    }

    function _setExternalNullifier(string memory appId, string memory action) private {
        uint256 newHash = abi.encodePacked(abi.encodePacked(appId).hashToField(), action).hashToField();
        emit ExternalNullifierUpdated(externalNullifierHash, newHash, appId, action);
        externalNullifierHash = newHash;
    }

    // ---------------------------------------------------------------- reads

    function amountPerMint() external view returns (uint256) {
        return _mintState.amountPerMint;
    }

    function waitBetweenMints() external view returns (uint256) {
        return _mintState.waitBetweenMints;
    }

    /// @notice True once the killswitch was pulled.
    function killed() external view returns (bool) {
        return _mintState.killed;
    }

    function name() external pure returns (string memory) {
        return "ORO";
    }

    function symbol() external pure returns (string memory) {
        return "ORO";
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function totalSupply() external view returns (uint256) {
        return _mintState.totalSupply;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
    }

    function allowance(address owner, address spender) external view returns (uint256) {
        return _allowances[owner][spender];
    }

    // ---------------------------------------------------------------- ERC20 (OpenZeppelin 5 semantics)

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        if (spender == address(0)) revert ERC20InvalidSpender(address(0));
        _allowances[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// @dev An allowance of type(uint256).max is never decreased, as in OpenZeppelin's ERC20.
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        if (from == address(0)) revert ERC20InvalidSender(address(0));
        uint256 currentAllowance = _allowances[from][msg.sender];
        if (currentAllowance != type(uint256).max) {
            if (currentAllowance < value) revert ERC20InsufficientAllowance(msg.sender, currentAllowance, value);
            unchecked {
                _allowances[from][msg.sender] = currentAllowance - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0)) revert ERC20InvalidReceiver(address(0));
        uint256 fromBalance = _balances[from];
        if (fromBalance < value) revert ERC20InsufficientBalance(from, fromBalance, value);
        unchecked {
            _balances[from] = fromBalance - value;
            _balances[to] += value;
        }
        emit Transfer(from, to, value);
    }
}
