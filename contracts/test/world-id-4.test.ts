import hre from "hardhat";
import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { zeroAddress, type Address } from "viem";
import { devNullifierHash, devSessionId, devWorldId4Nullifier, worldId4ActionOf, type SessionProof, type UniquenessProof } from "@oro/clients";
import { AMOUNT_PER_MINT, ENROLMENT_ACTION, GENESIS_CUTOFF, RP_ID, WAIT_BETWEEN_MINTS, deployFixture, mintTo } from "./fixtures";
import { blockTimestampOf, event, expectRevert, logsOf } from "./helpers";
import { ACTION4, claim, enrol, move, now, session, uniqueness } from "./world-id-4-proofs";

// World ID 4.0 (docs/world-id-4.md): enrol once with a uniqueness proof and a new session, claim with a session
// proof, move once from 3.0, close 3.0.

describe("World ID 4.0", function () {
  describe("enrolment", function () {
    it("a human verified after the cut-off enrols and mints the first claim; the session and the human are recorded", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const sessionId = devSessionId("erin", 1n);
      const t = await now();
      const receiver = alice.account.address;
      const hash = await oro.write.enrolInWorldId4Session([receiver, uniqueness("erin", receiver, sessionId, t), session(sessionId, receiver, t, { genesisMin: GENESIS_CUTOFF }), 7n], { account: alice.account });
      const mintedAt = await blockTimestampOf(hash);
      expect(await oro.read.balanceOf([receiver])).to.equal(AMOUNT_PER_MINT);
      const [lastMintedAt, numOfMints] = await oro.read.sessionMintData([sessionId]);
      expect([BigInt(lastMintedAt), numOfMints]).to.deep.equal([mintedAt, 1]);
      const logs = (await logsOf(hash)).filter((log) => log.eventName !== "Transfer");
      expect(logs).to.deep.equal([
        event(oro.address, "WorldId4Enrolled", { receiver, human: devWorldId4Nullifier("erin", RP_ID, ACTION4), sessionId, sessionSeed: 7n, movedFrom: 0n }),
        event(oro.address, "MintedWithSession", { receiver, sessionId, amount: AMOUNT_PER_MINT, numOfMints: 1n }),
      ]);
      const [, , , , , locked] = await oro.read.worldIdStatus();
      expect(locked).to.equal(true);
    });

    it("refuses a credential issued before the cut-off while 3.0 is open, and accepts it once 3.0 is closed", async function () {
      const { oro, owner, alice } = await loadFixture(deployFixture);
      const sessionId = devSessionId("alice-old", 1n);
      const receiver = alice.account.address;
      // An old credential cannot prove the cut-off: its proofs carry no genesis bound (0), which ORO does not pass.
      const old = async () => {
        const t = await now();
        return oro.write.enrolInWorldId4Session([receiver, uniqueness("alice-old", receiver, sessionId, t, { genesisMin: 0n }), session(sessionId, receiver, t, { genesisMin: 0n }), 7n], { account: alice.account });
      };
      await expectRevert(old(), "ProofInvalid");
      await oro.write.closeWorldId3({ account: owner.account });
      await old();
      expect(await oro.read.balanceOf([receiver])).to.equal(AMOUNT_PER_MINT);
    });

    it("one enrolment per human, one human per session", async function () {
      const { oro, alice, bob } = await loadFixture(deployFixture);
      await enrol(oro, alice, "erin", 1n);
      const t = await now();
      const other = devSessionId("erin", 2n);
      await expectRevert(
        oro.write.enrolInWorldId4Session([bob.account.address, uniqueness("erin", bob.account.address, other, t), session(other, bob.account.address, t, { genesisMin: GENESIS_CUTOFF }), 7n], { account: bob.account }),
        "HumanAlreadyEnrolled", [devWorldId4Nullifier("erin", RP_ID, ACTION4)],
      );
      const taken = devSessionId("erin", 1n);
      await expectRevert(
        oro.write.enrolInWorldId4Session([bob.account.address, uniqueness("frank", bob.account.address, taken, t), session(taken, bob.account.address, t, { genesisMin: GENESIS_CUTOFF }), 7n], { account: bob.account }),
        "SessionAlreadyEnrolled", [taken],
      );
    });

    it("refuses proofs made for something else: another rp, credential, receiver, action, session, an expired proof, session 0", async function () {
      const { oro, alice, bob } = await loadFixture(deployFixture);
      const receiver = alice.account.address;
      const sessionId = devSessionId("erin", 1n);
      const t = await now();
      const good = () => session(sessionId, receiver, t, { genesisMin: GENESIS_CUTOFF });
      const attempt = (u: UniquenessProof, s: SessionProof, to: Address = receiver) => oro.write.enrolInWorldId4Session([to, u, s, 7n], { account: alice.account });
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t, { rpId: RP_ID + 1n }), good()), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t, { issuerSchemaId: 9303n }), good()), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t), good(), bob.account.address), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t, { action: worldId4ActionOf("another-action") }), good()), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", receiver, devSessionId("erin", 9n), t), good()), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t, { expiresAtMin: t - 6n * 3_600n }), good()), "ExpirationTooOld");
      await expectRevert(attempt(uniqueness("erin", receiver, 0n, t), session(0n, receiver, t, { genesisMin: GENESIS_CUTOFF })), "InvalidSessionId");
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t), session(sessionId, receiver, t, { genesisMin: GENESIS_CUTOFF, issuerSchemaId: 11n })), "ProofInvalid");
      // A session nullifier without the session prefix byte (0x02) is not a session proof.
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t), session(sessionId, receiver, t, { genesisMin: GENESIS_CUTOFF, sessionNullifier: [1n, 5n] })), "InvalidAction");
      await expectRevert(attempt(uniqueness("erin", zeroAddress, sessionId, t), good(), zeroAddress), "ERC20InvalidReceiver", [zeroAddress]);
    });
  });

  describe("daily claims with a session proof", function () {
    it("claims again once the rolling wait has passed (next = last minted + wait), one second early refused", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const sessionId = await enrol(oro, alice, "erin");
      const [firstMintedAt] = await oro.read.sessionMintData([sessionId]);
      await expectRevert(claim(oro, alice, sessionId), "NotEnoughTimeSinceLastMint", [BigInt(firstMintedAt), WAIT_BETWEEN_MINTS]);
      await time.setNextBlockTimestamp(BigInt(firstMintedAt) + WAIT_BETWEEN_MINTS - 1n);
      await expectRevert(claim(oro, alice, sessionId), "NotEnoughTimeSinceLastMint", [BigInt(firstMintedAt), WAIT_BETWEEN_MINTS]);
      await time.setNextBlockTimestamp(BigInt(firstMintedAt) + WAIT_BETWEEN_MINTS);
      const hash = await claim(oro, alice, sessionId);
      expect(await oro.read.balanceOf([alice.account.address])).to.equal(2n * AMOUNT_PER_MINT);
      const logs = (await logsOf(hash)).filter((log) => log.eventName === "MintedWithSession");
      expect(logs).to.deep.equal([event(oro.address, "MintedWithSession", { receiver: alice.account.address, sessionId, amount: AMOUNT_PER_MINT, numOfMints: 2n })]);
    });

    it("refuses an unknown session, a replayed session proof and an older one", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      await expectRevert(claim(oro, alice, devSessionId("nobody", 1n)), "UnknownSession", [devSessionId("nobody", 1n)]);
      const sessionId = await enrol(oro, alice, "erin");
      await time.increase(WAIT_BETWEEN_MINTS);
      const receiver = alice.account.address;
      const proof = session(sessionId, receiver, await now());
      await oro.write.claimWithSession([receiver, proof], { account: alice.account });
      await time.increase(WAIT_BETWEEN_MINTS);
      await expectRevert(oro.write.claimWithSession([receiver, proof], { account: alice.account }), "SessionNullifierReplayed");
      const older = session(sessionId, receiver, proof.expiresAtMin);
      await expectRevert(oro.write.claimWithSession([receiver, older], { account: alice.account }), "StaleSessionProof", [proof.expiresAtMin, proof.expiresAtMin]);
    });

    it("refuses a session proof for another receiver, rp or credential, and after the killswitch", async function () {
      const { oro, owner, alice, bob } = await loadFixture(deployFixture);
      const sessionId = await enrol(oro, alice, "erin");
      await time.increase(WAIT_BETWEEN_MINTS);
      const t = await now();
      await expectRevert(oro.write.claimWithSession([bob.account.address, session(sessionId, alice.account.address, t)], { account: bob.account }), "ProofInvalid");
      await expectRevert(claim(oro, alice, sessionId, { rpId: 1n }), "ProofInvalid");
      await expectRevert(claim(oro, alice, sessionId, { issuerSchemaId: 9303n }), "ProofInvalid");
      await expectRevert(oro.write.claimWithSession([zeroAddress, session(sessionId, zeroAddress, t)]), "ERC20InvalidReceiver", [zeroAddress]);
      await oro.write.killswitch({ account: owner.account });
      await expectRevert(claim(oro, alice, sessionId), "MintingKilled");
      await expectRevert(enrol(oro, bob, "frank"), "MintingKilled");
    });
  });

  describe("the move from 3.0", function () {
    it("carries the last mint time and count; the 3.0 path then refuses, inside the wait and after it", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const minted = await mintTo(oro, alice, "grace", alice.account.address);
      const mintedAt = await blockTimestampOf(minted);
      const { sessionId, hash } = await move(oro, alice, "grace", "grace");
      const [lastMintedAt, numOfMints] = await oro.read.sessionMintData([sessionId]);
      expect([BigInt(lastMintedAt), numOfMints]).to.deep.equal([mintedAt, 1]);
      expect(await oro.read.nullifierHashMintData([devNullifierHash("grace")])).to.deep.equal([Number(mintedAt), 1, true]);
      expect((await logsOf(hash)).map((log) => log.eventName)).to.deep.equal(["WorldId4Enrolled"]);
      // Inside the carried wait: neither path mints.
      await expectRevert(mintTo(oro, alice, "grace", alice.account.address), "MovedToWorldId4", [devNullifierHash("grace")]);
      await expectRevert(claim(oro, alice, sessionId), "NotEnoughTimeSinceLastMint", [mintedAt, WAIT_BETWEEN_MINTS]);
      await time.increase(WAIT_BETWEEN_MINTS);
      await expectRevert(mintTo(oro, alice, "grace", alice.account.address), "MovedToWorldId4", [devNullifierHash("grace")]);
      await claim(oro, alice, sessionId);
      expect((await oro.read.sessionMintData([sessionId]))[1]).to.equal(2);
      expect(await oro.read.balanceOf([alice.account.address])).to.equal(2n * AMOUNT_PER_MINT);
    });

    it("refuses a 3.0 proof that chose another session, a second move, and any move after 3.0 closed", async function () {
      const { oro, owner, alice } = await loadFixture(deployFixture);
      await mintTo(oro, alice, "grace", alice.account.address);
      await expectRevert(move(oro, alice, "grace", "grace", 1n, devSessionId("mallory", 1n)).then((result) => result.hash), "InvalidProof");
      await move(oro, alice, "grace", "grace");
      await expectRevert(move(oro, alice, "grace", "grace-again", 1n).then((result) => result.hash), "MovedToWorldId4", [devNullifierHash("grace")]);
      await oro.write.closeWorldId3({ account: owner.account });
      await expectRevert(move(oro, alice, "henry", "henry").then((result) => result.hash), "WorldId3IsClosed");
      await expectRevert(mintTo(oro, alice, "henry", alice.account.address), "WorldId3IsClosed");
    });
  });

  describe("the owner's controls", function () {
    it("updates the verifier (not to an address without code), fixes the settings at the first enrolment, closes 3.0 once", async function () {
      const { oro, owner, alice, verifier } = await loadFixture(deployFixture);
      const other = await hre.viem.deployContract("MockWorldIdVerifier");
      await expectRevert(oro.write.updateWorldIdVerifier([alice.account.address], { account: owner.account }), "InvalidWorldIdVerifier");
      await expectRevert(oro.write.updateWorldIdVerifier([other.address], { account: alice.account }), "OwnableUnauthorizedAccount", [alice.account.address]);
      await oro.write.updateWorldIdVerifier([other.address], { account: owner.account });
      await oro.write.updateWorldIdVerifier([verifier.address], { account: owner.account });
      await expectRevert(oro.write.setWorldId4Settings([0n, ENROLMENT_ACTION, GENESIS_CUTOFF], { account: owner.account }), "InvalidRpId");
      await expectRevert(oro.write.setWorldId4Settings([RP_ID, "", GENESIS_CUTOFF], { account: owner.account }), "InvalidEnrolmentAction");
      await oro.write.setWorldId4Settings([RP_ID, ENROLMENT_ACTION, GENESIS_CUTOFF], { account: owner.account });
      await enrol(oro, alice, "erin");
      await expectRevert(oro.write.setWorldId4Settings([RP_ID, "another", GENESIS_CUTOFF], { account: owner.account }), "WorldId4SettingsLocked");
      const [closedBefore] = await oro.read.worldIdStatus();
      expect(closedBefore).to.equal(false);
      await oro.write.closeWorldId3({ account: owner.account });
      await expectRevert(oro.write.closeWorldId3({ account: owner.account }), "WorldId3IsClosed");
      const [closed, currentVerifier, rpId, action, cutoff] = await oro.read.worldIdStatus();
      expect([closed, currentVerifier.toLowerCase(), rpId, action, cutoff]).to.deep.equal([true, verifier.address.toLowerCase(), RP_ID, ACTION4, GENESIS_CUTOFF]);
      expect(await oro.read.killed()).to.equal(false);
    });
  });
});
