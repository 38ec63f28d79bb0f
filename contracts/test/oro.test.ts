import hre from "hardhat";
import { expect } from "chai";
import { loadFixture, setStorageAt, time } from "@nomicfoundation/hardhat-network-helpers";
import {
  encodeAbiParameters,
  keccak256,
  numberToHex,
  padHex,
  parseEther,
  zeroAddress,
  type Address,
  type Hex,
} from "viem";
import { buildDevProof, devNullifierHash, externalNullifierHashOf, worldId4ActionOf, type WorldIdProof } from "@oro/clients";
import {
  ACTION,
  AMOUNT_PER_MINT,
  APP_ID,
  CHAIN_ID,
  MAX_UINT128,
  MAX_UINT256,
  MAX_UINT32,
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
import { move } from "./world-id-4-proofs";

// Oro's storage: Ownable's _owner (0), Ownable2Step's _pendingOwner (1), then Oro's own variables in
// declaration order (immutables take no slot). Each is checked against the public getters before use.
const MINT_STATE_SLOT = 2n;
const EXTERNAL_NULLIFIER_SLOT = 3n;
const MINT_DATA_MAPPING_SLOT = 4n;
const BALANCES_MAPPING_SLOT = 5n;

function mappingSlot(key: bigint | Address, mappingSlotIndex: bigint): Hex {
  const keyWord = typeof key === "bigint" ? key : BigInt(key);
  return keccak256(
    encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [keyWord, mappingSlotIndex]),
  );
}

function word(value: bigint): Hex {
  return padHex(numberToHex(value), { size: 32 });
}

async function readSlot(address: Address, slot: bigint | Hex): Promise<bigint> {
  const publicClient = await hre.viem.getPublicClient();
  const value = await publicClient.getStorageAt({ address, slot: typeof slot === "bigint" ? numberToHex(slot) : slot });
  return BigInt(value ?? "0x0");
}

function packMintState(totalSupply: bigint, amountPerMint: bigint, wait: bigint, killed: boolean): bigint {
  return totalSupply | (amountPerMint << 128n) | (wait << 208n) | ((killed ? 1n : 0n) << 248n);
}

const ALICE = devNullifierHash("alice");

describe("Oro", function () {
  describe("metadata and deployment", function () {
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

  describe("mint to a receiver", function () {
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

  describe("mint to the caller", function () {
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

  describe("proof checks", function () {
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

  describe("wait between mints", function () {
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

  describe("network check", function () {
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

  describe("owner settings", function () {
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

  describe("ownership (Ownable2Step)", function () {
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

  describe("killswitch", function () {
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

  describe("packed storage and overflow guards", function () {
    it("stores the mint state, the external nullifier, the mint data and the balances where the tests expect", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const mintedAt = await blockTimestampOf(await mintSelf(oro, alice, "alice"));
      expect(await readSlot(oro.address, MINT_STATE_SLOT)).to.equal(
        packMintState(AMOUNT_PER_MINT, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, false),
      );
      expect(await readSlot(oro.address, EXTERNAL_NULLIFIER_SLOT)).to.equal(externalNullifierHashOf(APP_ID, ACTION));
      expect(await readSlot(oro.address, mappingSlot(ALICE, MINT_DATA_MAPPING_SLOT))).to.equal(mintedAt | (1n << 40n));
      expect(await readSlot(oro.address, mappingSlot(alice.account.address, BALANCES_MAPPING_SLOT))).to.equal(AMOUNT_PER_MINT);
    });

    it("sets the killed bit in the packed slot without touching the rest", async function () {
      const { oro, owner, alice } = await loadFixture(deployFixture);
      await mintSelf(oro, alice, "alice");
      await oro.write.killswitch({ account: owner.account });
      expect(await readSlot(oro.address, MINT_STATE_SLOT)).to.equal(
        packMintState(AMOUNT_PER_MINT, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, true),
      );
    });

    it("refuses the mint that would take a human's count past 2^32 - 1", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const slot = mappingSlot(ALICE, MINT_DATA_MAPPING_SLOT);
      await setStorageAt(oro.address, slot, word((MAX_UINT32 - 1n) << 40n));
      expect(await oro.read.nullifierHashMintData([ALICE])).to.deep.equal([0, Number(MAX_UINT32 - 1n), false]);

      // The last countable mint succeeds and reports 2^32 - 1 ...
      const hash = await mintSelf(oro, alice, "alice");
      expect((await logsOf(hash))[1]).to.deep.equal(
        event(oro.address, "Minted", {
          receiver: alice.account.address,
          nullifierHash: ALICE,
          amount: AMOUNT_PER_MINT,
          numOfMints: MAX_UINT32,
        }),
      );
      // ... the next one would wrap the packed counter.
      await time.increase(WAIT_BETWEEN_MINTS);
      await expectRevert(mintSelf(oro, alice, "alice"), "MintCountOverflow");
      expect((await oro.read.nullifierHashMintData([ALICE]))[1]).to.equal(Number(MAX_UINT32));
    });

    it("refuses the mint that would take the total supply past 2^128 - 1", async function () {
      const { oro, alice, bob } = await loadFixture(deployFixture);
      // The supply exactly reaches 2^128 - 1: allowed.
      await setStorageAt(
        oro.address,
        MINT_STATE_SLOT,
        word(packMintState(MAX_UINT128 - 2n * AMOUNT_PER_MINT, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, false)),
      );
      expect(await oro.read.totalSupply()).to.equal(MAX_UINT128 - 2n * AMOUNT_PER_MINT);
      await mintSelf(oro, alice, "alice");
      expect(await oro.read.totalSupply()).to.equal(MAX_UINT128 - AMOUNT_PER_MINT);
      await mintSelf(oro, bob, "bob");
      expect(await oro.read.totalSupply()).to.equal(MAX_UINT128);
      // One more wei would spill into the settings.
      await setStorageAt(
        oro.address,
        MINT_STATE_SLOT,
        word(packMintState(MAX_UINT128 - AMOUNT_PER_MINT + 1n, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, false)),
      );
      await expectRevert(mintSelf(oro, alice, "carol"), "SupplyOverflow");
      expect(await oro.read.amountPerMint()).to.equal(AMOUNT_PER_MINT);
      expect(await oro.read.waitBetweenMints()).to.equal(WAIT_BETWEEN_MINTS);
    });
  });

  describe("ERC20", function () {
    async function fundedFixture() {
      const deployment = await deployFixture();
      await mintSelf(deployment.oro, deployment.alice, "alice");
      return deployment;
    }

    it("transfer moves balances, emits Transfer and leaves the supply alone", async function () {
      const { oro, alice, bob } = await loadFixture(fundedFixture);
      const value = parseEther("0.2");
      const { result } = await oro.simulate.transfer([bob.account.address, value], { account: alice.account.address });
      expect(result).to.equal(true);
      const hash = await oro.write.transfer([bob.account.address, value], { account: alice.account });
      expect(await logsOf(hash)).to.deep.equal([
        event(oro.address, "Transfer", { from: alice.account.address, to: bob.account.address, value }),
      ]);
      await expectBalance(oro, alice.account.address, AMOUNT_PER_MINT - value);
      await expectBalance(oro, bob.account.address, value);
      expect(await oro.read.totalSupply()).to.equal(AMOUNT_PER_MINT);
    });

    it("transfer to oneself and of zero keep the balance", async function () {
      const { oro, alice, bob } = await loadFixture(fundedFixture);
      await oro.write.transfer([alice.account.address, AMOUNT_PER_MINT], { account: alice.account });
      await expectBalance(oro, alice.account.address, AMOUNT_PER_MINT);
      const hash = await oro.write.transfer([alice.account.address, 0n], { account: bob.account });
      expect(await logsOf(hash)).to.deep.equal([
        event(oro.address, "Transfer", { from: bob.account.address, to: alice.account.address, value: 0n }),
      ]);
      await expectBalance(oro, alice.account.address, AMOUNT_PER_MINT);
    });

    it("transfer refuses more than the balance and the zero receiver", async function () {
      const { oro, alice, bob } = await loadFixture(fundedFixture);
      await expectRevert(
        oro.write.transfer([bob.account.address, AMOUNT_PER_MINT + 1n], { account: alice.account }),
        "ERC20InsufficientBalance",
        [alice.account.address, AMOUNT_PER_MINT, AMOUNT_PER_MINT + 1n],
      );
      await expectRevert(oro.write.transfer([alice.account.address, 1n], { account: bob.account }), "ERC20InsufficientBalance", [
        bob.account.address,
        0n,
        1n,
      ]);
      await expectRevert(oro.write.transfer([zeroAddress, 1n], { account: alice.account }), "ERC20InvalidReceiver", [zeroAddress]);
      await expectBalance(oro, alice.account.address, AMOUNT_PER_MINT);
    });

    it("approve sets the allowance and emits Approval; the zero spender is refused", async function () {
      const { oro, alice, bob } = await loadFixture(fundedFixture);
      const { result } = await oro.simulate.approve([bob.account.address, 5n], { account: alice.account.address });
      expect(result).to.equal(true);
      const hash = await oro.write.approve([bob.account.address, 5n], { account: alice.account });
      expect(await logsOf(hash)).to.deep.equal([
        event(oro.address, "Approval", { owner: alice.account.address, spender: bob.account.address, value: 5n }),
      ]);
      expect(await oro.read.allowance([alice.account.address, bob.account.address])).to.equal(5n);
      expect(await oro.read.allowance([bob.account.address, alice.account.address])).to.equal(0n);
      await oro.write.approve([bob.account.address, 3n], { account: alice.account });
      expect(await oro.read.allowance([alice.account.address, bob.account.address])).to.equal(3n);
      await expectRevert(oro.write.approve([zeroAddress, 1n], { account: alice.account }), "ERC20InvalidSpender", [zeroAddress]);
    });

    it("transferFrom spends the allowance, moves balances and emits Transfer only", async function () {
      const { oro, alice, bob, carol } = await loadFixture(fundedFixture);
      await oro.write.approve([bob.account.address, parseEther("0.3")], { account: alice.account });
      const { result } = await oro.simulate.transferFrom([alice.account.address, carol.account.address, parseEther("0.1")], {
        account: bob.account.address,
      });
      expect(result).to.equal(true);
      const hash = await oro.write.transferFrom([alice.account.address, carol.account.address, parseEther("0.1")], {
        account: bob.account,
      });
      expect(await logsOf(hash)).to.deep.equal([
        event(oro.address, "Transfer", { from: alice.account.address, to: carol.account.address, value: parseEther("0.1") }),
      ]);
      expect(await oro.read.allowance([alice.account.address, bob.account.address])).to.equal(parseEther("0.2"));
      await expectBalance(oro, alice.account.address, parseEther("0.4"));
      await expectBalance(oro, carol.account.address, parseEther("0.1"));
      await expectBalance(oro, bob.account.address, 0n);
      expect(await oro.read.totalSupply()).to.equal(AMOUNT_PER_MINT);
    });

    it("transferFrom never decreases an unlimited allowance", async function () {
      const { oro, alice, bob } = await loadFixture(fundedFixture);
      await oro.write.approve([bob.account.address, MAX_UINT256], { account: alice.account });
      await oro.write.transferFrom([alice.account.address, bob.account.address, parseEther("0.5")], { account: bob.account });
      expect(await oro.read.allowance([alice.account.address, bob.account.address])).to.equal(MAX_UINT256);
      await expectBalance(oro, bob.account.address, AMOUNT_PER_MINT);
    });

    it("transferFrom refuses more than the allowance, more than the balance, and zero addresses", async function () {
      const { oro, alice, bob } = await loadFixture(fundedFixture);
      await oro.write.approve([bob.account.address, parseEther("0.1")], { account: alice.account });
      await expectRevert(
        oro.write.transferFrom([alice.account.address, bob.account.address, parseEther("0.1") + 1n], { account: bob.account }),
        "ERC20InsufficientAllowance",
        [bob.account.address, parseEther("0.1"), parseEther("0.1") + 1n],
      );
      await oro.write.approve([bob.account.address, MAX_UINT256], { account: alice.account });
      await expectRevert(
        oro.write.transferFrom([alice.account.address, bob.account.address, AMOUNT_PER_MINT + 1n], { account: bob.account }),
        "ERC20InsufficientBalance",
        [alice.account.address, AMOUNT_PER_MINT, AMOUNT_PER_MINT + 1n],
      );
      await expectRevert(
        oro.write.transferFrom([alice.account.address, zeroAddress, 1n], { account: bob.account }),
        "ERC20InvalidReceiver",
        [zeroAddress],
      );
      await expectRevert(
        oro.write.transferFrom([zeroAddress, bob.account.address, 0n], { account: bob.account }),
        "ERC20InvalidSender",
        [zeroAddress],
      );
      await expectBalance(oro, alice.account.address, AMOUNT_PER_MINT);
      expect(await oro.read.allowance([alice.account.address, bob.account.address])).to.equal(MAX_UINT256);
    });

    it("a failed transferFrom leaves the allowance untouched", async function () {
      const { oro, alice, bob } = await loadFixture(fundedFixture);
      await oro.write.approve([bob.account.address, parseEther("1")], { account: alice.account });
      await expectRevert(
        oro.write.transferFrom([alice.account.address, bob.account.address, parseEther("0.6")], { account: bob.account }),
        "ERC20InsufficientBalance",
        [alice.account.address, AMOUNT_PER_MINT, parseEther("0.6")],
      );
      expect(await oro.read.allowance([alice.account.address, bob.account.address])).to.equal(parseEther("1"));
    });
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
