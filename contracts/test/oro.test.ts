import hre from "hardhat";
import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { zeroAddress, type Address } from "viem";
import { buildDevProof, devNullifierHash, externalNullifierHashOf, worldId4ActionOf, type WorldIdProof } from "@oro/clients";
import {
  ACTION,
  AMOUNT_PER_MINT,
  APP_ID,
  CHAIN_ID,
  MAX_UINT256,
  MAX_UINT40,
  MAX_UINT80,
  WAIT_BETWEEN_MINTS,
  deployFixture,
  expectBalance,
  mintSelf,
  mintTo,
  proofFor,
  worldId4Settings,
  ENROLMENT_ACTION,
  GENESIS_CUTOFF,
  RP_ID,
  type Oro,
  type Wallet,
} from "./fixtures";
import { blockTimestampOf, decodeLogs, event, expectRevert, latestTimestamp, logsOf } from "./helpers";

// Oro's deployment and its mints: to a receiver, to the caller, the proof's checks, the wait, the chain. Its owner:
// oro-owner.test.ts; its packed storage: oro-packed-storage.test.ts; as an ERC20: oro-erc20.test.ts.
const ALICE = devNullifierHash("alice");

describe("Oro: metadata and deployment", function () {
  it("is the 18-decimal ORO token", async function () {
    const { oro } = await loadFixture(deployFixture);
    expect(await oro.read.name()).to.equal("ORO");
    expect(await oro.read.symbol()).to.equal("ORO");
    expect(await oro.read.decimals()).to.equal(18);
    expect(await oro.read.GROUP_ID()).to.equal(1n);
  });

  it("keeps the constructor settings and starts with no supply and no owner transfer pending", async function () {
    const { oro, router, owner } = await loadFixture(deployFixture);
    expect((await oro.read.worldId()).toLowerCase()).to.equal(router.address.toLowerCase());
    expect(await oro.read.expectedChainId()).to.equal(CHAIN_ID);
    expect(await oro.read.amountPerMint()).to.equal(AMOUNT_PER_MINT);
    expect(await oro.read.waitBetweenMints()).to.equal(WAIT_BETWEEN_MINTS);
    expect(await oro.read.killed()).to.equal(false);
    expect((await oro.read.owner()).toLowerCase()).to.equal(owner.account.address.toLowerCase());
    expect(await oro.read.pendingOwner()).to.equal(zeroAddress);
    expect(await oro.read.totalSupply()).to.equal(0n);
    expect(await oro.read.nullifierHashMintData([ALICE])).to.deep.equal([0, 0, false]);
  });

  it("derives the external nullifier from the app id and action as the clients package does", async function () {
    const { oro } = await loadFixture(deployFixture);
    const expected = externalNullifierHashOf(APP_ID, ACTION);
    expect(await oro.read.externalNullifierHash()).to.equal(expected);
    // A different action gives a different hash: the value really depends on both inputs.
    expect(externalNullifierHashOf(APP_ID, "other-action")).to.not.equal(expected);
  });

  it("emits the owner and the five setup events from zero", async function () {
    const { oro, owner, verifier, publicClient } = await loadFixture(deployFixture);
    const logs = await publicClient.getLogs({ address: oro.address, fromBlock: 0n });
    expect(await decodeLogs(logs)).to.deep.equal([
      event(oro.address, "OwnershipTransferred", { previousOwner: zeroAddress, newOwner: owner.account.address }),
      event(oro.address, "AmountPerMintUpdated", { oldAmountPerMint: 0n, newAmountPerMint: AMOUNT_PER_MINT }),
      event(oro.address, "WaitBetweenMintsUpdated", { oldWaitBetweenMints: 0n, newWaitBetweenMints: WAIT_BETWEEN_MINTS }),
      event(oro.address, "ExternalNullifierUpdated", {
        oldExternalNullifierHash: 0n,
        newExternalNullifierHash: externalNullifierHashOf(APP_ID, ACTION),
        appId: APP_ID,
        action: ACTION,
      }),
      event(oro.address, "WorldIdVerifierUpdated", { oldVerifier: zeroAddress, newVerifier: verifier.address }),
      event(oro.address, "WorldId4SettingsUpdated", {
        rpId: RP_ID,
        enrolmentAction: worldId4ActionOf(ENROLMENT_ACTION),
        enrolmentActionName: ENROLMENT_ACTION,
        genesisCutoff: GENESIS_CUTOFF,
      }),
    ]);
  });

  describe("constructor validation", function () {
    async function deployOro(overrides: {
      router?: Address;
      amount?: bigint;
      wait?: bigint;
      owner?: Address;
    }): Promise<Oro> {
      const { router, verifier, owner } = await loadFixture(deployFixture);
      return hre.viem.deployContract("Oro", [
        overrides.router ?? router.address,
        APP_ID,
        ACTION,
        CHAIN_ID,
        overrides.amount ?? AMOUNT_PER_MINT,
        overrides.wait ?? WAIT_BETWEEN_MINTS,
        overrides.owner ?? owner.account.address,
        worldId4Settings(verifier.address),
      ]);
    }

    it("refuses the zero router", async function () {
      await expectRevert(deployOro({ router: zeroAddress }), "InvalidWorldId");
    });

    it("refuses a router address without code, which would accept every proof", async function () {
      const { alice } = await loadFixture(deployFixture);
      await expectRevert(deployOro({ router: alice.account.address }), "InvalidWorldId");
    });

    it("refuses an amount per mint of 0 or above 2^80 - 1, and accepts 2^80 - 1", async function () {
      await expectRevert(deployOro({ amount: 0n }), "InvalidAmountPerMint", [0n]);
      await expectRevert(deployOro({ amount: MAX_UINT80 + 1n }), "InvalidAmountPerMint", [MAX_UINT80 + 1n]);
      await expectRevert(deployOro({ amount: MAX_UINT256 }), "InvalidAmountPerMint", [MAX_UINT256]);
      const oro = await deployOro({ amount: MAX_UINT80 });
      expect(await oro.read.amountPerMint()).to.equal(MAX_UINT80);
    });

    it("refuses a wait of 0 or above 2^40 - 1, and accepts 1 and 2^40 - 1", async function () {
      await expectRevert(deployOro({ wait: 0n }), "InvalidWaitBetweenMints", [0n]);
      await expectRevert(deployOro({ wait: MAX_UINT40 + 1n }), "InvalidWaitBetweenMints", [MAX_UINT40 + 1n]);
      expect(await (await deployOro({ wait: MAX_UINT40 })).read.waitBetweenMints()).to.equal(MAX_UINT40);
      expect(await (await deployOro({ wait: 1n })).read.waitBetweenMints()).to.equal(1n);
    });

    it("refuses the zero owner (OpenZeppelin's Ownable)", async function () {
      await expectRevert(deployOro({ owner: zeroAddress }), "OwnableInvalidOwner", [zeroAddress]);
    });
  });
});

describe("Oro: mint to a receiver", function () {
  it("returns the amount, mints it to the receiver and records the human's mint", async function () {
    const { oro, alice, bob } = await loadFixture(deployFixture);
    const { root, nullifierHash, proof } = proofFor("alice", alice.account.address);
    // The submitter does not matter in this form: bob relays alice's proof, alice is paid.
    const { result } = await oro.simulate.mint([root, nullifierHash, proof, alice.account.address], { account: bob.account.address });
    expect(result).to.equal(AMOUNT_PER_MINT);

    const hash = await oro.write.mint([root, nullifierHash, proof, alice.account.address], { account: bob.account });
    expect(await logsOf(hash)).to.deep.equal([
      event(oro.address, "Transfer", { from: zeroAddress, to: alice.account.address, value: AMOUNT_PER_MINT }),
      event(oro.address, "Minted", {
        receiver: alice.account.address,
        nullifierHash: ALICE,
        amount: AMOUNT_PER_MINT,
        numOfMints: 1n,
      }),
    ]);
    await expectBalance(oro, alice.account.address, AMOUNT_PER_MINT);
    await expectBalance(oro, bob.account.address, 0n);
    expect(await oro.read.totalSupply()).to.equal(AMOUNT_PER_MINT);
    const mintedAt = await blockTimestampOf(hash);
    expect(await oro.read.nullifierHashMintData([ALICE])).to.deep.equal([Number(mintedAt), 1, false]);
  });

  it("mints to a contract receiver too (the proof's signal is the receiver)", async function () {
    const { oro, claim, alice } = await loadFixture(deployFixture);
    await mintTo(oro, alice, "alice", claim.address);
    await expectBalance(oro, claim.address, AMOUNT_PER_MINT);
  });

  it("rejects a proof made for another receiver with the router's InvalidProof()", async function () {
    const { oro, alice, bob } = await loadFixture(deployFixture);
    const { root, nullifierHash, proof } = proofFor("alice", alice.account.address);
    await expectRevert(
      oro.write.mint([root, nullifierHash, proof, bob.account.address], { account: alice.account }),
      "InvalidProof",
    );
    expect(await oro.read.totalSupply()).to.equal(0n);
  });

  it("rejects the zero receiver with ERC20InvalidReceiver(0x0)", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const { root, nullifierHash, proof } = proofFor("alice", zeroAddress);
    await expectRevert(
      oro.write.mint([root, nullifierHash, proof, zeroAddress], { account: alice.account }),
      "ERC20InvalidReceiver",
      [zeroAddress],
    );
  });
});

describe("Oro: mint to the caller", function () {
  it("mints to msg.sender, whose address is the proof's signal", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const { root, nullifierHash, proof } = proofFor("alice", alice.account.address);
    const { result } = await oro.simulate.mint([root, nullifierHash, proof], { account: alice.account.address });
    expect(result).to.equal(AMOUNT_PER_MINT);

    const hash = await oro.write.mint([root, nullifierHash, proof], { account: alice.account });
    expect(await logsOf(hash)).to.deep.equal([
      event(oro.address, "Transfer", { from: zeroAddress, to: alice.account.address, value: AMOUNT_PER_MINT }),
      event(oro.address, "Minted", {
        receiver: alice.account.address,
        nullifierHash: ALICE,
        amount: AMOUNT_PER_MINT,
        numOfMints: 1n,
      }),
    ]);
    await expectBalance(oro, alice.account.address, AMOUNT_PER_MINT);
    expect(await oro.read.totalSupply()).to.equal(AMOUNT_PER_MINT);
    expect(await oro.read.nullifierHashMintData([ALICE])).to.deep.equal([Number(await blockTimestampOf(hash)), 1, false]);
  });

  it("rejects a proof submitted by someone else than its signal with InvalidProof()", async function () {
    const { oro, alice, mallory } = await loadFixture(deployFixture);
    const { root, nullifierHash, proof } = proofFor("alice", alice.account.address);
    await expectRevert(oro.write.mint([root, nullifierHash, proof], { account: mallory.account }), "InvalidProof");
    await expectBalance(oro, mallory.account.address, 0n);
  });
});

describe("Oro: proof checks", function () {
  async function expectMintRejected(
    oro: Oro,
    from: Wallet,
    args: { root: bigint; nullifierHash: bigint; proof: WorldIdProof },
  ): Promise<void> {
    await expectRevert(
      oro.write.mint([args.root, args.nullifierHash, args.proof, from.account.address], { account: from.account }),
      "InvalidProof",
    );
    await expectRevert(oro.write.mint([args.root, args.nullifierHash, args.proof], { account: from.account }), "InvalidProof");
  }

  it("rejects a proof used with another human's nullifier hash", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const valid = proofFor("alice", alice.account.address);
    await expectMintRejected(oro, alice, { ...valid, nullifierHash: devNullifierHash("bob") });
  });

  it("rejects a proof used with another root", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const valid = proofFor("alice", alice.account.address);
    await expectMintRejected(oro, alice, { ...valid, root: valid.root + 1n });
  });

  it("rejects proofs made for another app id or another action", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    await expectMintRejected(oro, alice, proofFor("alice", alice.account.address, "app_other", ACTION));
    await expectMintRejected(oro, alice, proofFor("alice", alice.account.address, APP_ID, "other-action"));
  });

  it("rejects a proof whose first element is off by one", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const valid = proofFor("alice", alice.account.address);
    const [first, ...rest] = valid.proof;
    await expectMintRejected(oro, alice, { ...valid, proof: [first + 1n, ...rest] as unknown as WorldIdProof });
  });

  for (let index = 1; index < 8; index++) {
    it(`rejects a proof with a nonzero element ${index}`, async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const valid = proofFor("alice", alice.account.address);
      const tampered = valid.proof.map((value, i) => (i === index ? 1n : value)) as unknown as WorldIdProof;
      await expectMintRejected(oro, alice, { ...valid, proof: tampered });
    });
  }

  it("accepts the valid proof after all the rejected ones (nothing was recorded by them)", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    await expectMintRejected(oro, alice, { ...proofFor("alice", alice.account.address), root: 7n });
    await mintSelf(oro, alice, "alice");
    expect(await oro.read.nullifierHashMintData([ALICE])).to.deep.equal([Number(await latestTimestamp()), 1, false]);
  });
});

describe("Oro: wait between mints", function () {
  it("refuses a second mint one second early and accepts it exactly at lastMintedAt + wait", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const firstMintedAt = await blockTimestampOf(await mintSelf(oro, alice, "alice"));

    await time.setNextBlockTimestamp(firstMintedAt + WAIT_BETWEEN_MINTS - 1n);
    await expectRevert(mintSelf(oro, alice, "alice"), "NotEnoughTimeSinceLastMint", [firstMintedAt, WAIT_BETWEEN_MINTS]);
    // Hardhat mined the failed transaction: it really ran one second before the boundary.
    expect(await latestTimestamp()).to.equal(firstMintedAt + WAIT_BETWEEN_MINTS - 1n);

    await time.setNextBlockTimestamp(firstMintedAt + WAIT_BETWEEN_MINTS);
    const hash = await mintSelf(oro, alice, "alice");
    expect(await blockTimestampOf(hash)).to.equal(firstMintedAt + WAIT_BETWEEN_MINTS);
    expect(await logsOf(hash)).to.deep.equal([
      event(oro.address, "Transfer", { from: zeroAddress, to: alice.account.address, value: AMOUNT_PER_MINT }),
      event(oro.address, "Minted", {
        receiver: alice.account.address,
        nullifierHash: ALICE,
        amount: AMOUNT_PER_MINT,
        numOfMints: 2n,
      }),
    ]);
    expect(await oro.read.nullifierHashMintData([ALICE])).to.deep.equal([Number(firstMintedAt + WAIT_BETWEEN_MINTS), 2, false]);
    await expectBalance(oro, alice.account.address, 2n * AMOUNT_PER_MINT);
  });

  it("rate-limits the human, not the address: minting to another address is refused too", async function () {
    const { oro, alice, bob } = await loadFixture(deployFixture);
    const firstMintedAt = await blockTimestampOf(await mintSelf(oro, alice, "alice"));
    await expectRevert(mintTo(oro, alice, "alice", bob.account.address), "NotEnoughTimeSinceLastMint", [
      firstMintedAt,
      WAIT_BETWEEN_MINTS,
    ]);
    await expectRevert(mintSelf(oro, bob, "alice"), "NotEnoughTimeSinceLastMint", [firstMintedAt, WAIT_BETWEEN_MINTS]);
    await expectBalance(oro, bob.account.address, 0n);
  });

  it("keeps humans independent, even when they mint to the same address", async function () {
    const { oro, alice, bob } = await loadFixture(deployFixture);
    await mintSelf(oro, alice, "alice");
    const hash = await mintTo(oro, bob, "bob", alice.account.address);
    expect(await logsOf(hash)).to.deep.equal([
      event(oro.address, "Transfer", { from: zeroAddress, to: alice.account.address, value: AMOUNT_PER_MINT }),
      event(oro.address, "Minted", {
        receiver: alice.account.address,
        nullifierHash: devNullifierHash("bob"),
        amount: AMOUNT_PER_MINT,
        numOfMints: 1n,
      }),
    ]);
    await expectBalance(oro, alice.account.address, 2n * AMOUNT_PER_MINT);
    expect(await oro.read.totalSupply()).to.equal(2n * AMOUNT_PER_MINT);
    expect((await oro.read.nullifierHashMintData([devNullifierHash("bob")]))[1]).to.equal(1);
  });

  it("counts every mint of a human", async function () {
    const { oro, alice, bob } = await loadFixture(deployFixture);
    await mintSelf(oro, alice, "alice");
    await time.increase(WAIT_BETWEEN_MINTS);
    await mintTo(oro, alice, "alice", bob.account.address);
    await time.increase(WAIT_BETWEEN_MINTS * 3n);
    const hash = await mintSelf(oro, alice, "alice");
    const logs = await logsOf(hash);
    expect(logs[1]).to.deep.equal(
      event(oro.address, "Minted", {
        receiver: alice.account.address,
        nullifierHash: ALICE,
        amount: AMOUNT_PER_MINT,
        numOfMints: 3n,
      }),
    );
    expect(await oro.read.nullifierHashMintData([ALICE])).to.deep.equal([Number(await blockTimestampOf(hash)), 3, false]);
    await expectBalance(oro, alice.account.address, 2n * AMOUNT_PER_MINT);
    await expectBalance(oro, bob.account.address, AMOUNT_PER_MINT);
    expect(await oro.read.totalSupply()).to.equal(3n * AMOUNT_PER_MINT);
  });
});

describe("Oro: network check", function () {
  it("refuses to mint on another chain than the expected one", async function () {
    const { router, verifier, owner, alice } = await loadFixture(deployFixture);
    const worldChainOro = await hre.viem.deployContract("Oro", [
      router.address, APP_ID, ACTION, 480n, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, owner.account.address, worldId4Settings(verifier.address),
    ]);
    await expectRevert(mintSelf(worldChainOro, alice, "alice"), "NotOnExpectedNetwork", [480n, CHAIN_ID]);
    await expectRevert(mintTo(worldChainOro, alice, "alice", alice.account.address), "NotOnExpectedNetwork", [
      480n,
      CHAIN_ID,
    ]);
    expect(await worldChainOro.read.totalSupply()).to.equal(0n);
  });
});

// A dev proof for a custom root stays valid only with that root (sanity check of the helper itself).
describe("buildDevProof (as the tests use it)", function () {
  it("binds the root it was built with", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const custom = buildDevProof({ receiver: alice.account.address, nullifierHash: ALICE, appId: APP_ID, action: ACTION, root: 42n });
    expect(custom.root).to.equal(42n);
    await oro.write.mint([custom.root, custom.nullifierHash, custom.proof], { account: alice.account });
    await expectBalance(oro, alice.account.address, AMOUNT_PER_MINT);
  });
});
