import hre from "hardhat";
import { expect } from "chai";
import { loadFixture, setStorageAt, time } from "@nomicfoundation/hardhat-network-helpers";
import { encodeAbiParameters, keccak256, numberToHex, padHex, zeroAddress, type Hex } from "viem";
import { devSessionId, devSessionSeed } from "@oro/clients";
import { AMOUNT_PER_MINT, CHAIN_ID, ENROLMENT_ACTION, GENESIS_CUTOFF, MAX_UINT128, MAX_UINT32, RP_ID, WAIT_BETWEEN_MINTS, deployFixture, mintTo, worldId4Settings, APP_ID, ACTION } from "./fixtures";
import { expectRevert } from "./helpers";
import { claim, completion, enrol, move, moveArgs, now, uniqueness } from "./world-id-4-proofs";

// The World ID 4.0 paths' remaining refusals: each entry point checks the receiver, the chain, the supply and the
// count as the 3.0 mint does, and only the owner moves the transition.

// Oro's storage (oro.test.ts lists the 3.0 slots): the mint state is slot 2; after the ERC20 state come the 4.0
// verifier (7), the enrolment settings (8, 9), the enrolled sessions (10) and the sessions' mint data (11).
const MINT_STATE_SLOT = 2n;
const SESSION_MINT_DATA_SLOT = 11n;

const word = (value: bigint): Hex => padHex(numberToHex(value), { size: 32 });
const mappingSlot = (key: bigint, index: bigint): Hex => keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [key, index]));
const packMintState = (totalSupply: bigint) => totalSupply | (AMOUNT_PER_MINT << 128n) | (WAIT_BETWEEN_MINTS << 208n);

describe("World ID 4.0: the limits every path keeps", function () {
  it("refuses a move to the zero address", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    await mintTo(oro, alice, "grace", alice.account.address);
    await expectRevert(
      oro.write.moveToWorldId4Session(await moveArgs(zeroAddress, "grace", "grace"), { account: alice.account }),
      "ERC20InvalidReceiver",
      [zeroAddress],
    );
  });

  it("refuses enrolment, the move and session claims on another chain than the expected one", async function () {
    const { router, verifier, owner, alice } = await loadFixture(deployFixture);
    const worldChainOro = await hre.viem.deployContract("Oro", [
      router.address, APP_ID, ACTION, 480n, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, owner.account.address, worldId4Settings(verifier.address),
    ]);
    await expectRevert(enrol(worldChainOro, alice, "erin"), "NotOnExpectedNetwork", [480n, CHAIN_ID]);
    await expectRevert(claim(worldChainOro, alice, devSessionId("erin", 1n)), "NotOnExpectedNetwork", [480n, CHAIN_ID]);
    await expectRevert(move(worldChainOro, alice, "grace", "grace").then((result) => result.hash), "NotOnExpectedNetwork", [480n, CHAIN_ID]);
    expect(await worldChainOro.read.totalSupply()).to.equal(0n);
  });

  it("refuses the enrolment and the session claim that would take the supply past 2^128 - 1", async function () {
    const { oro, alice, bob } = await loadFixture(deployFixture);
    const sessionId = await enrol(oro, alice, "erin");
    await time.increase(WAIT_BETWEEN_MINTS);
    await setStorageAt(oro.address, MINT_STATE_SLOT, word(packMintState(MAX_UINT128 - AMOUNT_PER_MINT + 1n)));
    await expectRevert(claim(oro, alice, sessionId), "SupplyOverflow");
    await expectRevert(enrol(oro, bob, "frank"), "SupplyOverflow");
    // Exactly at the limit is allowed.
    await setStorageAt(oro.address, MINT_STATE_SLOT, word(packMintState(MAX_UINT128 - AMOUNT_PER_MINT)));
    await claim(oro, alice, sessionId);
    expect(await oro.read.totalSupply()).to.equal(MAX_UINT128);
    expect(await oro.read.amountPerMint()).to.equal(AMOUNT_PER_MINT);
  });

  it("refuses the session claim that would take a human's count past 2^32 - 1", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const sessionId = await enrol(oro, alice, "erin");
    const slot = mappingSlot(sessionId, SESSION_MINT_DATA_SLOT);
    const [lastMintedAt, , lastExpiresAtMin, tag] = await oro.read.sessionMintData([sessionId]);
    const packed = (count: bigint) => word(BigInt(lastMintedAt) | (count << 40n) | (lastExpiresAtMin << 72n) | (tag << 136n));
    await setStorageAt(oro.address, slot, packed(MAX_UINT32 - 1n));
    expect((await oro.read.sessionMintData([sessionId]))[1]).to.equal(Number(MAX_UINT32 - 1n));
    await time.increase(WAIT_BETWEEN_MINTS);
    await claim(oro, alice, sessionId);
    expect((await oro.read.sessionMintData([sessionId]))[1]).to.equal(Number(MAX_UINT32));
    await time.increase(WAIT_BETWEEN_MINTS);
    await expectRevert(claim(oro, alice, sessionId), "MintCountOverflow");
  });

  it("only the owner sets the 4.0 settings or closes 3.0", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    await expectRevert(oro.write.setWorldId4Settings([RP_ID, ENROLMENT_ACTION, GENESIS_CUTOFF], { account: alice.account }), "OwnableUnauthorizedAccount", [alice.account.address]);
    await expectRevert(oro.write.closeWorldId3({ account: alice.account }), "OwnableUnauthorizedAccount", [alice.account.address]);
    const [closed] = await oro.read.worldIdStatus();
    expect(closed).to.equal(false);
  });

  it("a second human's enrolment finds the settings already fixed, and they stay fixed", async function () {
    const { oro, owner, alice, bob } = await loadFixture(deployFixture);
    await enrol(oro, alice, "erin");
    await enrol(oro, bob, "frank");
    const [, , , , , locked] = await oro.read.worldIdStatus();
    expect(locked).to.equal(true);
    await expectRevert(oro.write.setWorldId4Settings([RP_ID, "another", GENESIS_CUTOFF], { account: owner.account }), "WorldId4SettingsLocked");
  });

  it("a session proof with no expiry (a verifier that checks nothing would pass it) still starts the replay record", async function () {
    const { oro, owner, alice } = await loadFixture(deployFixture);
    const noop = await hre.viem.deployContract("NoopWorldIdVerifier");
    await oro.write.updateWorldIdVerifier([noop.address], { account: owner.account });
    const sessionId = devSessionId("erin", 1n);
    const receiver = alice.account.address;
    const t = await now();
    const enrolment = uniqueness("erin", receiver, sessionId, t, { expiresAtMin: 0n });
    const seed = devSessionSeed("erin", 1n);
    await oro.write.enrolInWorldId4Session(
      [receiver, seed, completion(sessionId, receiver, seed, 0n, enrolment.nullifier, t, { expiresAtMin: 0n }), enrolment],
      { account: alice.account },
    );
    // Recorded as 1, never 0 (0 marks an unknown session): the session is known, and no proof without an expiry claims.
    expect((await oro.read.sessionMintData([sessionId]))[2]).to.equal(1n);
    await time.increase(WAIT_BETWEEN_MINTS);
    await expectRevert(claim(oro, alice, sessionId, { expiresAtMin: 0n }), "StaleSessionProof", [0n, 1n]);
  });
});
