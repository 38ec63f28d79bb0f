import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { parseEther, zeroAddress } from "viem";
import { devNullifierHash, externalNullifierHashOf } from "@oro/clients";
import { ACTION, AMOUNT_PER_MINT, APP_ID, MAX_UINT40, MAX_UINT80, WAIT_BETWEEN_MINTS, deployFixture, expectBalance, mintSelf, mintTo, proofFor } from "./fixtures";
import { blockTimestampOf, event, expectRevert, logsOf } from "./helpers";
import { move } from "./world-id-4-proofs";

// Oro's owner: its settings, the two-step hand-over and the killswitch that gives every power up.
const ALICE = devNullifierHash("alice");

describe("Oro: owner settings", function () {
  it("setAmountPerMint emits old -> new and the next mint pays the new amount", async function () {
    const { oro, owner, alice } = await loadFixture(deployFixture);
    const newAmount = parseEther("2");
    const hash = await oro.write.setAmountPerMint([newAmount], { account: owner.account });
    expect(await logsOf(hash)).to.deep.equal([
      event(oro.address, "AmountPerMintUpdated", { oldAmountPerMint: AMOUNT_PER_MINT, newAmountPerMint: newAmount }),
    ]);
    expect(await oro.read.amountPerMint()).to.equal(newAmount);
    const { root, nullifierHash, proof } = proofFor("alice", alice.account.address);
    const { result } = await oro.simulate.mint([root, nullifierHash, proof], { account: alice.account.address });
    expect(result).to.equal(newAmount);
    await mintSelf(oro, alice, "alice");
    await expectBalance(oro, alice.account.address, newAmount);
  });

  it("setAmountPerMint validates the amount and is owner-only", async function () {
    const { oro, owner, alice } = await loadFixture(deployFixture);
    await expectRevert(oro.write.setAmountPerMint([0n], { account: owner.account }), "InvalidAmountPerMint", [0n]);
    await expectRevert(oro.write.setAmountPerMint([MAX_UINT80 + 1n], { account: owner.account }), "InvalidAmountPerMint", [
      MAX_UINT80 + 1n,
    ]);
    await expectRevert(oro.write.setAmountPerMint([1n], { account: alice.account }), "OwnableUnauthorizedAccount", [
      alice.account.address,
    ]);
    expect(await oro.read.amountPerMint()).to.equal(AMOUNT_PER_MINT);
    await oro.write.setAmountPerMint([MAX_UINT80], { account: owner.account });
    expect(await oro.read.amountPerMint()).to.equal(MAX_UINT80);
  });

  it("setWaitBetweenMints emits old -> new and moves the boundary of the next mint", async function () {
    const { oro, owner, alice } = await loadFixture(deployFixture);
    const firstMintedAt = await blockTimestampOf(await mintSelf(oro, alice, "alice"));
    const newWait = 3600n;
    const hash = await oro.write.setWaitBetweenMints([newWait], { account: owner.account });
    expect(await logsOf(hash)).to.deep.equal([
      event(oro.address, "WaitBetweenMintsUpdated", { oldWaitBetweenMints: WAIT_BETWEEN_MINTS, newWaitBetweenMints: newWait }),
    ]);
    expect(await oro.read.waitBetweenMints()).to.equal(newWait);

    await time.setNextBlockTimestamp(firstMintedAt + newWait - 1n);
    await expectRevert(mintSelf(oro, alice, "alice"), "NotEnoughTimeSinceLastMint", [firstMintedAt, newWait]);
    await time.setNextBlockTimestamp(firstMintedAt + newWait);
    await mintSelf(oro, alice, "alice");
    await expectBalance(oro, alice.account.address, 2n * AMOUNT_PER_MINT);
  });

  it("a longer wait also applies to humans who minted before the change", async function () {
    const { oro, owner, alice } = await loadFixture(deployFixture);
    const firstMintedAt = await blockTimestampOf(await mintSelf(oro, alice, "alice"));
    await oro.write.setWaitBetweenMints([WAIT_BETWEEN_MINTS * 2n], { account: owner.account });
    await time.setNextBlockTimestamp(firstMintedAt + WAIT_BETWEEN_MINTS);
    await expectRevert(mintSelf(oro, alice, "alice"), "NotEnoughTimeSinceLastMint", [firstMintedAt, WAIT_BETWEEN_MINTS * 2n]);
  });

  it("setWaitBetweenMints validates the wait and is owner-only", async function () {
    const { oro, owner, alice } = await loadFixture(deployFixture);
    await expectRevert(oro.write.setWaitBetweenMints([0n], { account: owner.account }), "InvalidWaitBetweenMints", [0n]);
    await expectRevert(oro.write.setWaitBetweenMints([MAX_UINT40 + 1n], { account: owner.account }), "InvalidWaitBetweenMints", [
      MAX_UINT40 + 1n,
    ]);
    await expectRevert(oro.write.setWaitBetweenMints([60n], { account: alice.account }), "OwnableUnauthorizedAccount", [
      alice.account.address,
    ]);
    expect(await oro.read.waitBetweenMints()).to.equal(WAIT_BETWEEN_MINTS);
    await oro.write.setWaitBetweenMints([MAX_UINT40], { account: owner.account });
    expect(await oro.read.waitBetweenMints()).to.equal(MAX_UINT40);
  });

  it("setExternalNullifier emits old -> new, refuses old-app proofs and accepts new-app ones", async function () {
    const { oro, owner, alice } = await loadFixture(deployFixture);
    const newAppId = "app_production_oro";
    const newAction = "daily-claim";
    const oldHash = externalNullifierHashOf(APP_ID, ACTION);
    const newHash = externalNullifierHashOf(newAppId, newAction);
    const hash = await oro.write.setExternalNullifier([newAppId, newAction], { account: owner.account });
    expect(await logsOf(hash)).to.deep.equal([
      event(oro.address, "ExternalNullifierUpdated", {
        oldExternalNullifierHash: oldHash,
        newExternalNullifierHash: newHash,
        appId: newAppId,
        action: newAction,
      }),
    ]);
    expect(await oro.read.externalNullifierHash()).to.equal(newHash);

    await expectRevert(mintSelf(oro, alice, "alice"), "InvalidProof");
    const { root, nullifierHash, proof } = proofFor("alice", alice.account.address, newAppId, newAction);
    await oro.write.mint([root, nullifierHash, proof], { account: alice.account });
    await expectBalance(oro, alice.account.address, AMOUNT_PER_MINT);
  });

  it("setExternalNullifier is refused once anything was minted: new nullifiers would give every human a second identity", async function () {
    const { oro, owner, alice } = await loadFixture(deployFixture);
    await mintSelf(oro, alice, "alice");
    await expectRevert(oro.write.setExternalNullifier(["app_production_oro", "daily-claim"], { account: owner.account }), "ExternalNullifierLocked");
    expect(await oro.read.externalNullifierHash()).to.equal(externalNullifierHashOf(APP_ID, ACTION));
    // A moved human's 3.0 path stays closed: no new action re-opens it with a fresh nullifier.
    await move(oro, alice, "alice", "alice");
    await expectRevert(oro.write.setExternalNullifier([APP_ID, "another-action"], { account: owner.account }), "ExternalNullifierLocked");
  });

  it("setExternalNullifier is owner-only", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    await expectRevert(oro.write.setExternalNullifier(["app_x", "y"], { account: alice.account }), "OwnableUnauthorizedAccount", [
      alice.account.address,
    ]);
    expect(await oro.read.externalNullifierHash()).to.equal(externalNullifierHashOf(APP_ID, ACTION));
  });
});

describe("Oro: ownership (Ownable2Step)", function () {
  it("hands ownership over in two steps before the killswitch", async function () {
    const { oro, owner, alice, bob } = await loadFixture(deployFixture);
    const startHash = await oro.write.transferOwnership([alice.account.address], { account: owner.account });
    expect(await logsOf(startHash)).to.deep.equal([
      event(oro.address, "OwnershipTransferStarted", { previousOwner: owner.account.address, newOwner: alice.account.address }),
    ]);
    expect((await oro.read.pendingOwner()).toLowerCase()).to.equal(alice.account.address.toLowerCase());
    expect((await oro.read.owner()).toLowerCase()).to.equal(owner.account.address.toLowerCase());
    await expectRevert(oro.write.acceptOwnership({ account: bob.account }), "OwnableUnauthorizedAccount", [bob.account.address]);

    const acceptHash = await oro.write.acceptOwnership({ account: alice.account });
    expect(await logsOf(acceptHash)).to.deep.equal([
      event(oro.address, "OwnershipTransferred", { previousOwner: owner.account.address, newOwner: alice.account.address }),
    ]);
    expect((await oro.read.owner()).toLowerCase()).to.equal(alice.account.address.toLowerCase());
    expect(await oro.read.pendingOwner()).to.equal(zeroAddress);

    await oro.write.setAmountPerMint([1n], { account: alice.account });
    expect(await oro.read.amountPerMint()).to.equal(1n);
    await expectRevert(oro.write.setAmountPerMint([2n], { account: owner.account }), "OwnableUnauthorizedAccount", [
      owner.account.address,
    ]);
  });
});

describe("Oro: killswitch", function () {
  async function killedFixture() {
    const deployment = await deployFixture();
    const { oro, owner, alice, bob } = deployment;
    await mintSelf(oro, alice, "alice");
    await oro.write.transferOwnership([bob.account.address], { account: owner.account });
    const killHash = await oro.write.killswitch({ account: owner.account });
    return { ...deployment, killHash };
  }

  it("is owner-only", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    await expectRevert(oro.write.killswitch({ account: alice.account }), "OwnableUnauthorizedAccount", [alice.account.address]);
    expect(await oro.read.killed()).to.equal(false);
  });

  it("emits Killswitched and gives up ownership", async function () {
    const { oro, owner, killHash } = await loadFixture(killedFixture);
    expect(await logsOf(killHash)).to.deep.equal([
      event(oro.address, "Killswitched", { by: owner.account.address }),
      event(oro.address, "OwnershipTransferred", { previousOwner: owner.account.address, newOwner: zeroAddress }),
    ]);
    expect(await oro.read.killed()).to.equal(true);
    expect(await oro.read.owner()).to.equal(zeroAddress);
    expect(await oro.read.pendingOwner()).to.equal(zeroAddress);
  });

  it("stops every form of mint for good", async function () {
    const { oro, alice, bob, carol } = await loadFixture(killedFixture);
    await time.increase(WAIT_BETWEEN_MINTS);
    await expectRevert(mintSelf(oro, carol, "carol"), "MintingKilled");
    await expectRevert(mintTo(oro, bob, "carol", carol.account.address), "MintingKilled");
    await expectRevert(mintSelf(oro, alice, "alice"), "MintingKilled");
    expect(await oro.read.totalSupply()).to.equal(AMOUNT_PER_MINT);
  });

  it("leaves no owner power: setters, killswitch and ownership calls revert", async function () {
    const { oro, owner, bob } = await loadFixture(killedFixture);
    const unauthorized = [owner.account.address];
    await expectRevert(oro.write.setAmountPerMint([1n], { account: owner.account }), "OwnableUnauthorizedAccount", unauthorized);
    await expectRevert(oro.write.setWaitBetweenMints([1n], { account: owner.account }), "OwnableUnauthorizedAccount", unauthorized);
    await expectRevert(oro.write.setExternalNullifier(["a", "b"], { account: owner.account }), "OwnableUnauthorizedAccount", unauthorized);
    await expectRevert(oro.write.killswitch({ account: owner.account }), "OwnableUnauthorizedAccount", unauthorized);
    await expectRevert(oro.write.transferOwnership([owner.account.address], { account: owner.account }), "OwnableUnauthorizedAccount", unauthorized);
    await expectRevert(oro.write.renounceOwnership({ account: owner.account }), "OwnableUnauthorizedAccount", unauthorized);
    // The transfer to bob that was pending before the killswitch was cancelled by it.
    await expectRevert(oro.write.acceptOwnership({ account: bob.account }), "OwnableUnauthorizedAccount", [bob.account.address]);
    expect(await oro.read.owner()).to.equal(zeroAddress);
  });

  it("keeps transfers, approvals and reads working", async function () {
    const { oro, alice, bob, carol } = await loadFixture(killedFixture);
    await oro.write.transfer([bob.account.address, parseEther("0.1")], { account: alice.account });
    await oro.write.approve([carol.account.address, parseEther("0.2")], { account: alice.account });
    await oro.write.transferFrom([alice.account.address, carol.account.address, parseEther("0.15")], { account: carol.account });
    await expectBalance(oro, alice.account.address, parseEther("0.25"));
    await expectBalance(oro, bob.account.address, parseEther("0.1"));
    await expectBalance(oro, carol.account.address, parseEther("0.15"));
    expect(await oro.read.allowance([alice.account.address, carol.account.address])).to.equal(parseEther("0.05"));
    expect(await oro.read.totalSupply()).to.equal(AMOUNT_PER_MINT);
    expect(await oro.read.amountPerMint()).to.equal(AMOUNT_PER_MINT);
    expect(await oro.read.waitBetweenMints()).to.equal(WAIT_BETWEEN_MINTS);
    expect(await oro.read.externalNullifierHash()).to.equal(externalNullifierHashOf(APP_ID, ACTION));
    expect((await oro.read.nullifierHashMintData([ALICE]))[1]).to.equal(1);
  });
});
