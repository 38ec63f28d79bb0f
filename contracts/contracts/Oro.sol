// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {IERC20Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IWorldID} from "./interfaces/IWorldID.sol";
import {IWorldIDVerifier} from "./interfaces/IWorldIDVerifier.sol";
import {ByteHasher} from "./libraries/ByteHasher.sol";

/// @title ORO
/// @notice ERC20 that every verified human may mint once per `waitBetweenMints`, with World ID 3.0 (a proof per
///         mint, keyed by nullifier hash) or World ID 4.0 (enrol once with a uniqueness proof and a new session, then
///         a session proof per claim, keyed by the session). A 3.0 human may move to 4.0 once, carrying their last
///         mint time and mint count; their 3.0 path then closes. The owner tunes the amount, the wait and the
///         external nullifier, sets the 4.0 verifier, and closes 3.0 for good, until the killswitch is pulled; after
///         that no mint can succeed and no owner power remains.
/// @dev The ERC20 core is written here rather than inherited from OpenZeppelin's ERC20 because OZ keeps
///      `_totalSupply` in a private slot of its own: packing the supply with the mint settings saves a cold
///      storage read on every mint, the hottest path of the product. Errors and interfaces are OZ's.
contract Oro is IERC20Metadata, IERC20Errors, Ownable2Step {
    using ByteHasher for bytes;

    /// @notice World ID's Orb group; the only group whose proofs mint.
    uint256 public constant GROUP_ID = 1;
    /// @notice World ID 4.0's credential issuer schema for proof of human (Orb); no other credential mints.
    uint64 private constant PROOF_OF_HUMAN_SCHEMA = 1;
    /// @dev The BN254 scalar field: the verifier's public inputs (a session id among them) are its elements.
    uint256 private constant SNARK_SCALAR_FIELD =
        21888242871839275222246405745257275088548364400416034343698204186575808495617;

    uint8 private constant KILLED = 1;
    uint8 private constant WORLD_ID_3_CLOSED = 2;

    /// @dev Everything a mint reads and writes globally, in one slot: one cold read, one write per mint.
    struct MintState {
        uint128 totalSupply;
        uint80 amountPerMint;
        uint40 waitBetweenMints;
        /// @dev KILLED | WORLD_ID_3_CLOSED: one byte, so the 3.0 mint tests both with the check it had for one.
        uint8 flags;
    }

    /// @dev One slot per 3.0 human. `lastMintedAt` fits uint40 until the year 36812.
    struct MintData {
        uint40 lastMintedAt;
        uint32 numOfMints;
        /// @dev Set once the human moved to 4.0: their 3.0 path is closed, their history stays readable.
        bool movedToWorldId4;
    }

    /// @dev One slot per 4.0 session (one session per human). The last proof's expiry bound and a tag of its session
    ///      nullifier are the replay record: a claim must bring a later expiry and another nullifier.
    struct SessionMintData {
        uint40 lastMintedAt;
        uint32 numOfMints;
        uint64 lastExpiresAtMin;
        uint120 lastSessionNullifierTag;
    }

    /// @dev What a 4.0 claim reads besides the mint state, in one slot.
    struct WorldId4Verifier {
        IWorldIDVerifier verifier;
        uint64 rpId;
    }

    /// @dev What only enrolment reads. Fixed by the first enrolment: a new rp id, action or cut-off would give every
    ///      enrolled human a second identity.
    struct WorldId4Enrolment {
        uint256 action;
        uint64 genesisCutoff;
        bool locked;
    }

    /// @notice A World ID 4.0 uniqueness proof as IDKit returns it (`responses[0]` of a 4.0 result), with the genesis
    ///         bound it was requested with (a public input IDKit does not echo: the app keeps it with the proof).
    struct UniquenessProof {
        uint256 nullifier;
        uint256 nonce;
        uint64 expiresAtMin;
        uint64 credentialGenesisIssuedAtMin;
        uint256[5] proof;
    }

    /// @notice A World ID 4.0 session proof as IDKit returns it; `sessionId` is the session's commitment.
    struct SessionProof {
        uint256 sessionId;
        uint256[2] sessionNullifier;
        uint256 nonce;
        uint64 expiresAtMin;
        uint256[5] proof;
    }

    /// @notice The settings a World ID 4.0 deployment starts with.
    struct WorldId4Settings {
        IWorldIDVerifier verifier;
        uint64 rpId;
        string enrolmentAction;
        uint64 genesisCutoff;
    }

    /// @notice The World ID router that verifies proofs, fixed at deployment.
    IWorldID public immutable worldId;
    /// @notice The only chain on which minting works; a fork or a replay on another chain cannot mint.
    uint256 public immutable expectedChainId;

    MintState private _mintState;
    /// @notice hashToField(hashToField(appId) ‖ action): the proof's external nullifier.
    uint256 public externalNullifierHash;
    /// @notice Per 3.0 human: when they last minted, how many times, and whether they moved to 4.0.
    mapping(uint256 nullifierHash => MintData) public nullifierHashMintData;


    mapping(address account => uint256) private _balances;
    mapping(address account => mapping(address spender => uint256)) private _allowances;

    // World ID 4.0 (declared after the ERC20 state, so the 3.0 layout keeps its slots).
    WorldId4Verifier private _worldId4;
    WorldId4Enrolment private _enrolment;
    /// @notice Per 4.0 human (their nullifier for the enrolment action): their session, 0 if not enrolled.
    mapping(uint256 human => uint256 sessionId) private _enrolledSession;
    /// @notice Per 4.0 session: when its human last minted, how many times (carried over by a move), the replay record.
    mapping(uint256 sessionId => SessionMintData) public sessionMintData;

    /// @dev nullifierHash is data, not a topic: a topic costs 119 gas more on every mint, and indexers read it anyway.
    event Minted(address indexed receiver, uint256 nullifierHash, uint256 amount, uint256 numOfMints);
    event AmountPerMintUpdated(uint256 oldAmountPerMint, uint256 newAmountPerMint);
    event WaitBetweenMintsUpdated(uint256 oldWaitBetweenMints, uint256 newWaitBetweenMints);
    event ExternalNullifierUpdated(
        uint256 oldExternalNullifierHash, uint256 newExternalNullifierHash, string appId, string action
    );
    event Killswitched(address indexed by);
    /// @notice A 4.0 claim. `sessionId` names the human through their WorldId4Enrolled event.
    event MintedWithSession(address indexed receiver, uint256 sessionId, uint256 amount, uint256 numOfMints);
    /// @notice A human enrolled in World ID 4.0: `human` is their enrolment nullifier, `sessionId` their session, and
    ///         `movedFrom` their 3.0 nullifier hash when they moved (0 for a human new to ORO under 4.0).
    ///         `sessionSeed` is the second half of IDKit's `session_<commitment><oprf seed>` id: with `sessionId` it is
    ///         the whole id the app needs to ask World App for the next session proof, on any device.
    event WorldId4Enrolled(address indexed receiver, uint256 human, uint256 sessionId, uint256 sessionSeed, uint256 movedFrom);
    event WorldIdVerifierUpdated(address oldVerifier, address newVerifier);
    event WorldId4SettingsUpdated(uint64 rpId, uint256 enrolmentAction, string enrolmentActionName, uint64 genesisCutoff);
    /// @notice World ID 3.0 minting is over; any human may now enrol in 4.0 whatever their credential's age.
    event WorldId3Closed();

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
    /// @notice The owner closed World ID 3.0: mint with 3.0 proofs and the move to 4.0 are over.
    error WorldId3IsClosed();
    /// @notice This 3.0 human moved to 4.0; they claim with their session now.
    error MovedToWorldId4(uint256 nullifierHash);
    /// @notice This human (enrolment nullifier) already has a session.
    error HumanAlreadyEnrolled(uint256 human);
    /// @notice This session already belongs to a human.
    error SessionAlreadyEnrolled(uint256 sessionId);
    /// @notice No human enrolled with this session.
    error UnknownSession(uint256 sessionId);
    /// @notice Session id 0 is the circuit's "no session" (any World ID satisfies it); a session id is also a field element.
    error InvalidSessionId();
    /// @notice A session's OPRF seed starts with World's session prefix byte 0x01 (world-id-protocol's SessionId).
    error InvalidSessionSeed(uint256 sessionSeed);
    /// @notice While 3.0 is open, an enrolment's credential must be issued at or after the genesis cut-off.
    error CredentialBeforeCutoff(uint64 credentialGenesisIssuedAtMin, uint64 genesisCutoff);
    /// @notice Once ORO has been minted the external nullifier is fixed: a new one would give every human who minted
    ///         with 3.0, and every human who moved, a second identity.
    error ExternalNullifierLocked();
    /// @notice This session proof's nullifier was already used for a claim.
    error SessionNullifierReplayed();
    /// @notice The proof's expiry bound is not later than the last claim's: an old proof replayed.
    error StaleSessionProof(uint256 expiresAtMin, uint256 lastExpiresAtMin);
    /// @notice The 4.0 verifier address has no code.
    error InvalidWorldIdVerifier();
    error InvalidRpId();
    /// @notice An enrolment action must be a non-empty string.
    error InvalidEnrolmentAction();
    /// @notice The rp id, the enrolment action and the genesis cut-off are fixed once a human enrolled.
    error WorldId4SettingsLocked();

    constructor(
        IWorldID worldId_,
        string memory appId,
        string memory action,
        uint256 expectedChainId_,
        uint256 amountPerMint_,
        uint256 waitBetweenMints_,
        address initialOwner,
        WorldId4Settings memory worldId4
    ) Ownable(initialOwner) {
        // The mint path calls the router without Solidity's EXTCODESIZE guard, and a call to an address
        // without code succeeds: such a router would accept every proof, so it is refused here once.
        if (address(worldId_).code.length == 0) revert InvalidWorldId();
        worldId = worldId_;
        expectedChainId = expectedChainId_;
        _setAmountPerMint(amountPerMint_);
        _setWaitBetweenMints(waitBetweenMints_);
        _setExternalNullifier(appId, action);
        _setWorldIdVerifier(address(worldId4.verifier));
        _setWorldId4Settings(worldId4.rpId, worldId4.enrolmentAction, worldId4.genesisCutoff);
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
        if (stateWord >> 248 != 0) {
            if (stateWord >> 248 & KILLED != 0) revert MintingKilled();
            revert WorldId3IsClosed();
        }

        uint256 wait = (stateWord >> 208) & type(uint40).max;
        uint256 lastMintedAt = dataWord & type(uint40).max;
        uint256 numOfMints;
        uint256 newSupply;
        // Unchecked: lastMintedAt is a past block timestamp, numOfMints < 2^32 and both supply terms < 2^128,
        // so none of these can wrap; the range checks below keep the packed fields inside their bits.
        unchecked {
            if (block.timestamp - lastMintedAt < wait) {
                if (dataWord >> 72 != 0) revert MovedToWorldId4(nullifierHash);
                revert NotEnoughTimeSinceLastMint(lastMintedAt, wait);
            }

            _verifyProof(root, nullifierHash, proof, receiver);

            numOfMints = (dataWord >> 40) + 1;
            amount = (stateWord >> 128) & type(uint80).max;
            newSupply = (stateWord & type(uint128).max) + amount;
        }
        // A moved human's flag sits above the count, so it lands here too (no extra check on the daily path).
        if (numOfMints > type(uint32).max) {
            if (dataWord >> 72 != 0) revert MovedToWorldId4(nullifierHash);
            revert MintCountOverflow();
        }
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

    /// @dev hashToField(abi.encodePacked(receiver)): the signal every mint and claim proof carries.
    function _signalOf(address receiver) private pure returns (uint256 signalHash) {
        assembly ("memory-safe") {
            mstore(0x00, shl(96, receiver))
            signalHash := shr(8, keccak256(0x00, 20))
        }
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

    // ---------------------------------------------------------------- World ID 4.0

    /// @notice Enrols a human new to ORO in World ID 4.0 and mints their first claim to `receiver`.
    /// @param enrolment The human's uniqueness proof for the enrolment action, its signal `receiver ‖ sessionId`: one
    ///        enrolment per human, and the human chose this receiver and this session.
    /// @param session A proof of the session made after the enrolment proof, its signal
    ///        `receiver ‖ sessionSeed ‖ 0 ‖ enrolment.nullifier`: the session's holder chose this human, this receiver,
    ///        this seed and no 3.0 history. With the enrolment's signal naming the session, neither proof combines with
    ///        another human's, so nobody who copies or reorders pending transactions can change what this one does.
    /// @param sessionSeed The OPRF seed half of IDKit's session id (World's prefix byte 0x01), recorded in the event.
    ///        (The parameters' order keeps this selector below the 3.0 mint's, where its dispatch stays cheapest.)
    /// While 3.0 is open the credential must be issued at or after the genesis cut-off (a human verified since World App
    /// stopped making 3.0 credentials, so with no 3.0 path); humans verified earlier move instead. Once 3.0 is closed any
    /// genesis bound is taken, so proofs requested before the close still enrol after it.
    function enrolInWorldId4Session(
        address receiver,
        uint256 sessionSeed,
        SessionProof calldata session,
        UniquenessProof calldata enrolment
    )
        external
        returns (uint256 amount)
    {
        if (receiver == address(0)) revert ERC20InvalidReceiver(address(0));
        uint256 stateWord = _worldId4State();
        uint64 genesisMin = enrolment.credentialGenesisIssuedAtMin;
        if (stateWord >> 248 & WORLD_ID_3_CLOSED == 0) {
            uint64 cutoff = _enrolment.genesisCutoff;
            if (genesisMin < cutoff) revert CredentialBeforeCutoff(genesisMin, cutoff);
        }
        _enrolHuman(receiver, enrolment, session, sessionSeed, 0, block.timestamp | (1 << 40));
        emit WorldId4Enrolled(receiver, enrolment.nullifier, session.sessionId, sessionSeed, 0);
        amount = _mintState.amountPerMint;
        _mintSupply(receiver, amount);
        emit MintedWithSession(receiver, session.sessionId, amount, 1);
    }

    /// @notice Moves a 3.0 human to 4.0: their last mint time and mint count go to the new session, their 3.0 path
    ///         closes. Mints nothing (the next claim opens at lastMintedAt + wait, as before).
    /// @param root, nullifierHash, proof A 3.0 proof for the mint's action, its signal `receiver ‖ sessionId`: this
    ///        3.0 human chose this receiver and this session.
    /// @param enrolment As for enrolInWorldId4Session (its genesis bound only makes the proof stricter here).
    /// @param session A proof of the session made after the two others, its signal
    ///        `receiver ‖ sessionSeed ‖ nullifierHash ‖ enrolment.nullifier`: the session's holder chose this 3.0 human
    ///        and this 4.0 human. Each of the three proofs names what the others must be.
    ///        (The name and the order keep the selectors where the 3.0 mint's dispatch stays cheapest.)
    function moveToWorldId4Session(
        address receiver,
        uint256 root,
        uint256 nullifierHash,
        uint256 sessionSeed,
        UniquenessProof calldata enrolment,
        uint256[8] calldata proof,
        SessionProof calldata session
    ) external {
        if (receiver == address(0)) revert ERC20InvalidReceiver(address(0));
        uint256 stateWord = _worldId4State();
        if (stateWord >> 248 & WORLD_ID_3_CLOSED != 0) revert WorldId3IsClosed();
        MintData storage moved = nullifierHashMintData[nullifierHash];
        if (moved.movedToWorldId4) revert MovedToWorldId4(nullifierHash);
        // A rare path: the plain call (with its EXTCODESIZE check) is fine here.
        worldId.verifyProof(
            root, GROUP_ID, _bindingOf(receiver, session.sessionId), nullifierHash, externalNullifierHash, proof
        );
        moved.movedToWorldId4 = true;
        _enrolHuman(
            receiver,
            enrolment,
            session,
            sessionSeed,
            nullifierHash,
            uint256(moved.lastMintedAt) | (uint256(moved.numOfMints) << 40)
        );
        emit WorldId4Enrolled(receiver, enrolment.nullifier, session.sessionId, sessionSeed, nullifierHash);
    }

    /// @notice Mints `amountPerMint` to `receiver` for the human of `session.sessionId`, with a fresh session proof
    ///         whose signal is `receiver`.
    function claimWithSession(address receiver, SessionProof calldata session) external returns (uint256 amount) {
        if (receiver == address(0)) revert ERC20InvalidReceiver(address(0));
        if (block.chainid != expectedChainId) revert NotOnExpectedNetwork(expectedChainId, block.chainid);
        SessionMintData storage mintData = sessionMintData[session.sessionId];
        MintState storage mintState = _mintState;
        uint256 stateWord;
        uint256 dataWord;
        assembly ("memory-safe") {
            stateWord := sload(mintState.slot)
            dataWord := sload(mintData.slot)
        }
        if (stateWord >> 248 & KILLED != 0) revert MintingKilled();
        (uint256 newDataWord, uint256 numOfMints) = _nextSessionMintData(session, dataWord, stateWord >> 208);

        _verifySession(session, _signalOf(receiver), 0);

        uint256 newSupply;
        unchecked {
            amount = (stateWord >> 128) & type(uint80).max;
            newSupply = (stateWord & type(uint128).max) + amount;
        }
        if (newSupply > type(uint128).max) revert SupplyOverflow();
        assembly ("memory-safe") {
            sstore(mintData.slot, newDataWord)
            sstore(mintState.slot, or(newSupply, shl(128, shr(128, stateWord))))
        }
        unchecked {
            _balances[receiver] += amount;
        }
        emit Transfer(address(0), receiver, amount);
        emit MintedWithSession(receiver, session.sessionId, amount, numOfMints);
    }

    /// @dev The session's slot after this claim, or a revert naming why the claim cannot happen. Layout:
    ///      lastMintedAt | numOfMints << 40 | lastExpiresAtMin << 72 | lastSessionNullifierTag << 136.
    function _nextSessionMintData(SessionProof calldata session, uint256 dataWord, uint256 waitWord)
        private
        view
        returns (uint256 newDataWord, uint256 numOfMints)
    {
        // An enrolled session always has its expiry bound set.
        if (dataWord == 0) revert UnknownSession(session.sessionId);
        uint256 wait = waitWord & type(uint40).max;
        uint256 lastMintedAt = dataWord & type(uint40).max;
        uint256 expiresAtMin = session.expiresAtMin;
        uint256 tag = session.sessionNullifier[0] & type(uint120).max;
        // Unchecked: lastMintedAt is a past block timestamp and numOfMints < 2^32.
        unchecked {
            if (block.timestamp - lastMintedAt < wait) revert NotEnoughTimeSinceLastMint(lastMintedAt, wait);
            if (tag == dataWord >> 136) revert SessionNullifierReplayed();
            uint256 lastExpiresAtMin = (dataWord >> 72) & type(uint64).max;
            if (expiresAtMin <= lastExpiresAtMin) revert StaleSessionProof(expiresAtMin, lastExpiresAtMin);
            numOfMints = ((dataWord >> 40) & type(uint32).max) + 1;
        }
        if (numOfMints > type(uint32).max) revert MintCountOverflow();
        newDataWord = block.timestamp | (numOfMints << 40) | (expiresAtMin << 72) | (tag << 136);
    }

    /// @dev The checks every enrolment path starts with; returns the mint state word.
    function _worldId4State() private view returns (uint256 stateWord) {
        if (block.chainid != expectedChainId) revert NotOnExpectedNetwork(expectedChainId, block.chainid);
        MintState storage mintState = _mintState;
        assembly ("memory-safe") {
            stateWord := sload(mintState.slot)
        }
        if (stateWord >> 248 & KILLED != 0) revert MintingKilled();
    }

    /// @dev Verifies both enrolment proofs and records the human's session, with the history it starts from
    ///      (`lastMintedAt | numOfMints << 40`, carried over by a move; `movedFrom` is that 3.0 human, or 0).
    function _enrolHuman(
        address receiver,
        UniquenessProof calldata enrolment,
        SessionProof calldata session,
        uint256 sessionSeed,
        uint256 movedFrom,
        uint256 history
    ) private {
        uint256 sessionId = session.sessionId;
        uint256 human = enrolment.nullifier;
        // Malformed session data is refused here, so every enrolment on chain names a session IDKit can prove again.
        if (sessionId == 0 || sessionId >= SNARK_SCALAR_FIELD) revert InvalidSessionId();
        if (sessionSeed >> 248 != 1) revert InvalidSessionSeed(sessionSeed);
        if (_enrolledSession[human] != 0) revert HumanAlreadyEnrolled(human);
        if (sessionMintData[sessionId].lastExpiresAtMin != 0) revert SessionAlreadyEnrolled(sessionId);
        _verifyEnrolment(enrolment, _bindingOf(receiver, sessionId));
        _verifySession(
            session,
            abi.encodePacked(receiver, sessionSeed, movedFrom, human).hashToField(),
            enrolment.credentialGenesisIssuedAtMin
        );
        if (!_enrolment.locked) _enrolment.locked = true;
        _enrolledSession[human] = sessionId;
        // The session's own proof starts its replay record, so it cannot claim again.
        uint256 expiresAtMin = session.expiresAtMin == 0 ? 1 : session.expiresAtMin;
        uint256 tag = session.sessionNullifier[0] & type(uint120).max;
        SessionMintData storage mintData = sessionMintData[sessionId];
        assembly ("memory-safe") {
            sstore(mintData.slot, or(history, or(shl(72, expiresAtMin), shl(136, tag))))
        }
    }

    /// @dev verifier.verify for the enrolment action with ORO's rp id and proof of human pinned, the genesis bound the
    ///      proof was made with (checked against the cut-off by the caller) and `signalHash` computed on chain.
    function _verifyEnrolment(UniquenessProof calldata enrolment, uint256 signalHash) private view {
        WorldId4Verifier memory worldId4 = _worldId4;
        worldId4.verifier.verify(
            enrolment.nullifier,
            _enrolment.action,
            worldId4.rpId,
            enrolment.nonce,
            signalHash,
            enrolment.expiresAtMin,
            PROOF_OF_HUMAN_SCHEMA,
            enrolment.credentialGenesisIssuedAtMin,
            enrolment.proof
        );
    }

    /// @dev hashToField(abi.encodePacked(receiver, sessionId)): the signal of the enrolment's uniqueness proof and of a
    ///      move's 3.0 proof. IDKit 4.2 cannot bind a uniqueness proof to a session (its session id input is 0), so the
    ///      signal says which session, and which receiver, the human chose.
    function _bindingOf(address receiver, uint256 sessionId) private pure returns (uint256) {
        return abi.encodePacked(receiver, sessionId).hashToField();
    }

    /// @dev verifier.verifySession with ORO's rp id and proof of human pinned; bubbles up the verifier's error. Session
    ///      id 0 never gets here: enrolment refuses it, and a claim needs an enrolled session.
    function _verifySession(SessionProof calldata session, uint256 signalHash, uint64 genesisMin) private view {
        WorldId4Verifier memory worldId4 = _worldId4;
        worldId4.verifier.verifySession(
            worldId4.rpId,
            session.nonce,
            signalHash,
            session.expiresAtMin,
            PROOF_OF_HUMAN_SCHEMA,
            genesisMin,
            session.sessionId,
            session.sessionNullifier,
            session.proof
        );
    }

    /// @dev Adds a first-claim mint to the supply and the receiver's balance.
    function _mintSupply(address receiver, uint256 amount) private {
        uint256 newSupply = uint256(_mintState.totalSupply) + amount;
        if (newSupply > type(uint128).max) revert SupplyOverflow();
        _mintState.totalSupply = uint128(newSupply);
        unchecked {
            _balances[receiver] += amount;
        }
        emit Transfer(address(0), receiver, amount);
    }

    // ---------------------------------------------------------------- owner

    function setAmountPerMint(uint256 newAmountPerMint) external onlyOwner {
        _setAmountPerMint(newAmountPerMint);
    }

    function setWaitBetweenMints(uint256 newWaitBetweenMints) external onlyOwner {
        _setWaitBetweenMints(newWaitBetweenMints);
    }

    /// @notice Points minting at another World ID app or action; proofs for the old one stop working. Only before the
    ///         first mint (ExternalNullifierLocked): after it, new nullifiers would split every human who minted.
    function setExternalNullifier(string calldata appId, string calldata action) external onlyOwner {
        if (_mintState.totalSupply != 0) revert ExternalNullifierLocked();
        _setExternalNullifier(appId, action);
    }

    /// @notice Points 4.0 verification at another verifier (World's next one, or an adapter to a new interface);
    ///         balances, mint history and enrolments stay where they are.
    function updateWorldIdVerifier(address newVerifier) external onlyOwner {
        _setWorldIdVerifier(newVerifier);
    }

    /// @notice The 4.0 rp id, enrolment action and genesis cut-off, until the first human enrols.
    function setWorldId4Settings(uint64 rpId, string calldata enrolmentAction, uint64 genesisCutoff) external onlyOwner {
        if (_enrolment.locked) revert WorldId4SettingsLocked();
        _setWorldId4Settings(rpId, enrolmentAction, genesisCutoff);
    }

    /// @notice Irreversibly ends minting with World ID 3.0 proofs and the move; from now on any human enrols in 4.0,
    ///         whatever their credential's age (a human who never moved starts a new streak).
    function closeWorldId3() external onlyOwner {
        if (_mintState.flags & WORLD_ID_3_CLOSED != 0) revert WorldId3IsClosed();
        _mintState.flags |= WORLD_ID_3_CLOSED;
        emit WorldId3Closed();
    }

    /// @notice Irreversibly ends minting and gives up ownership. Frozen for ever: mint, claim, enrolment and the
    ///         move, the amount per mint, the wait, the external nullifier, the 4.0 settings and ownership itself.
    ///         Untouched: balances, transfers, approvals, and every read (the mint history stays readable).
    function killswitch() external onlyOwner {
        _mintState.flags |= KILLED;
        emit Killswitched(msg.sender);
        _transferOwnership(address(0));
    }

    function _setWorldIdVerifier(address newVerifier) private {
        // Like the router: a call to an address without code succeeds, which would accept every proof.
        if (newVerifier.code.length == 0) revert InvalidWorldIdVerifier();
        emit WorldIdVerifierUpdated(address(_worldId4.verifier), newVerifier);
        _worldId4.verifier = IWorldIDVerifier(newVerifier);
    }

    function _setWorldId4Settings(uint64 rpId, string memory enrolmentAction, uint64 genesisCutoff) private {
        if (rpId == 0) revert InvalidRpId();
        if (bytes(enrolmentAction).length == 0) revert InvalidEnrolmentAction();
        // World ID 4.0's action field: keccak256 of the action string, shifted into the field (top byte 0x00).
        uint256 action = abi.encodePacked(enrolmentAction).hashToField();
        _worldId4.rpId = rpId;
        _enrolment.action = action;
        _enrolment.genesisCutoff = genesisCutoff;
        emit WorldId4SettingsUpdated(rpId, action, enrolmentAction, genesisCutoff);
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
        return _mintState.flags & KILLED != 0;
    }

    /// @notice Where the move to World ID 4.0 stands: whether the owner closed 3.0, the 4.0 verifier, ORO's rp id,
    ///         the enrolment action (as the field element proofs carry), the genesis cut-off that enrolment pins while
    ///         3.0 is open, and whether a human has enrolled (the settings are then fixed).
    function worldIdStatus()
        external
        view
        returns (
            bool worldId3Closed,
            address verifier,
            uint64 rpId,
            uint256 enrolmentAction,
            uint64 genesisCutoff,
            bool locked
        )
    {
        return (
            _mintState.flags & WORLD_ID_3_CLOSED != 0,
            address(_worldId4.verifier),
            _worldId4.rpId,
            _enrolment.action,
            _enrolment.genesisCutoff,
            _enrolment.locked
        );
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
