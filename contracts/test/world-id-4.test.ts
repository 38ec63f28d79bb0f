import hre from "hardhat";
import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { zeroAddress, type Address } from "viem";
import { devNullifierHash, devSessionId, devSessionSeed, devWorldId4Nullifier, worldId4ActionOf, type SessionProof, type UniquenessProof } from "@oro/clients";
import { AMOUNT_PER_MINT, ENROLMENT_ACTION, FIXTURES, GENESIS_CUTOFF, RP_ID, VERIFIER_VERSIONS, WAIT_BETWEEN_MINTS, mintTo } from "./fixtures";
import { blockTimestampOf, event, expectRevert, logsOf } from "./helpers";
import { ACTION4, claim, completion, enrol, enrolmentArgs, move, moveArgs, now, proofForSession, session, uniqueness } from "./world-id-4-proofs";

// World ID 4.0 (docs/world-id-4.md): enrol once with a uniqueness proof and a session proof that completes it, claim
// with a session proof, move once from 3.0, close 3.0. Every case runs against World's V1 and V2 verifiers.

const SEED = devSessionSeed("erin", 1n);
const SNARK_SCALAR_FIELD = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

for (const version of VERIFIER_VERSIONS) {
  const deployFixture = FIXTURES[version];

  describe(`World ID 4.0 (verifier ${version}): enrolment`, function () {
    it("a human verified after the cut-off enrols and mints the first claim; the session and the human are recorded", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const sessionId = devSessionId("erin", 1n);
      const t = await now();
      const receiver = alice.account.address;
      const enrolment = uniqueness("erin", receiver, sessionId, t);
      const hash = await oro.write.enrolInWorldId4Session([receiver, SEED, completion(sessionId, receiver, SEED, 0n, enrolment.nullifier, t), enrolment], { account: alice.account });
      const mintedAt = await blockTimestampOf(hash);
      expect(await oro.read.balanceOf([receiver])).to.equal(AMOUNT_PER_MINT);
      const [lastMintedAt, numOfMints] = await oro.read.sessionMintData([sessionId]);
      expect([BigInt(lastMintedAt), numOfMints]).to.deep.equal([mintedAt, 1]);
      const logs = (await logsOf(hash)).filter((log) => log.eventName !== "Transfer");
      expect(logs).to.deep.equal([
        event(oro.address, "WorldId4Enrolled", { receiver, human: devWorldId4Nullifier("erin", RP_ID, ACTION4), sessionId, sessionSeed: SEED, movedFrom: 0n }),
        event(oro.address, "MintedWithSession", { receiver, sessionId, amount: AMOUNT_PER_MINT, numOfMints: 1n }),
      ]);
      const [, , , , , locked] = await oro.read.worldIdStatus();
      expect(locked).to.equal(true);
    });

    it("refuses a credential issued before the cut-off while 3.0 is open, and accepts it once 3.0 is closed", async function () {
      const { oro, owner, alice } = await loadFixture(deployFixture);
      const receiver = alice.account.address;
      // An old credential cannot prove the cut-off: its proofs carry an earlier genesis bound (0), which ORO refuses.
      const old = await enrolmentArgs(receiver, "alice-old", 1n, 0n);
      await expectRevert(oro.write.enrolInWorldId4Session(old, { account: alice.account }), "CredentialBeforeCutoff", [0n, GENESIS_CUTOFF]);
      const older = await enrolmentArgs(receiver, "alice-old", 1n, GENESIS_CUTOFF - 1n);
      await expectRevert(oro.write.enrolInWorldId4Session(older, { account: alice.account }), "CredentialBeforeCutoff", [GENESIS_CUTOFF - 1n, GENESIS_CUTOFF]);
      // Proofs that name the cut-off but were made by an older credential are not proofs of it.
      const [, seed, c, u] = old;
      await expectRevert(oro.write.enrolInWorldId4Session([receiver, seed, c, { ...u, credentialGenesisIssuedAtMin: GENESIS_CUTOFF }], { account: alice.account }), "ProofInvalid");
      await oro.write.closeWorldId3({ account: owner.account });
      // The same proofs, requested before the close and sent after it, enrol.
      await oro.write.enrolInWorldId4Session(old, { account: alice.account });
      expect(await oro.read.balanceOf([receiver])).to.equal(AMOUNT_PER_MINT);
    });

    it("proofs requested before 3.0 closed with the cut-off still enrol after the close (no lock-out at the close)", async function () {
      const { oro, owner, alice } = await loadFixture(deployFixture);
      const args = await enrolmentArgs(alice.account.address, "erin");
      await oro.write.closeWorldId3({ account: owner.account });
      await oro.write.enrolInWorldId4Session(args, { account: alice.account });
      expect(await oro.read.balanceOf([alice.account.address])).to.equal(AMOUNT_PER_MINT);
    });

    it("an enrolment proof requested to last 30 days still enrols 6 hours later, with a fresh session proof", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const receiver = alice.account.address;
      const sessionId = devSessionId("erin", 1n);
      const t = await now();
      const enrolment = uniqueness("erin", receiver, sessionId, t, { expiresAtMin: t + 30n * 86_400n });
      const stale = completion(sessionId, receiver, SEED, 0n, enrolment.nullifier, t);
      await time.increase(6 * 3_600);
      await expectRevert(oro.write.enrolInWorldId4Session([receiver, SEED, stale, enrolment], { account: alice.account }), "ExpirationTooOld");
      const later = await now();
      await oro.write.enrolInWorldId4Session([receiver, SEED, completion(sessionId, receiver, SEED, 0n, enrolment.nullifier, later), enrolment], { account: alice.account });
      expect(await oro.read.balanceOf([receiver])).to.equal(AMOUNT_PER_MINT);
    });

    it("refuses malformed session data with a named error: session 0 or outside the field, a seed without World's prefix", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const receiver = alice.account.address;
      const t = await now();
      const attempt = (sessionId: bigint, seed: bigint) => {
        const enrolment = uniqueness("erin", receiver, sessionId, t);
        return oro.write.enrolInWorldId4Session([receiver, seed, completion(sessionId, receiver, seed, 0n, enrolment.nullifier, t), enrolment], { account: alice.account });
      };
      const sessionId = devSessionId("erin", 1n);
      await expectRevert(attempt(0n, SEED), "InvalidSessionId");
      await expectRevert(attempt(SNARK_SCALAR_FIELD, SEED), "InvalidSessionId");
      for (const seed of [0n, 7n, SEED ^ (3n << 248n), (1n << 256n) - 1n]) {
        await expectRevert(attempt(sessionId, seed), "InvalidSessionSeed", [seed]);
      }
      await attempt(sessionId, SEED);
    });

    it("one enrolment per human, one human per session", async function () {
      const { oro, alice, bob } = await loadFixture(deployFixture);
      await enrol(oro, alice, "erin", 1n);
      await expectRevert(
        oro.write.enrolInWorldId4Session(await enrolmentArgs(bob.account.address, "erin", 2n), { account: bob.account }),
        "HumanAlreadyEnrolled", [devWorldId4Nullifier("erin", RP_ID, ACTION4)],
      );
      // The session's holder (erin) names frank as its human: still one human per session.
      const t = await now();
      const taken = devSessionId("erin", 1n);
      const frank = uniqueness("frank", bob.account.address, taken, t);
      await expectRevert(
        oro.write.enrolInWorldId4Session([bob.account.address, SEED, completion(taken, bob.account.address, SEED, 0n, frank.nullifier, t), frank], { account: bob.account }),
        "SessionAlreadyEnrolled", [taken],
      );
    });

    it("refuses proofs made for something else: another rp, credential, receiver, action, session, human, seed, history, an expired proof", async function () {
      const { oro, alice, bob } = await loadFixture(deployFixture);
      const receiver = alice.account.address;
      const sessionId = devSessionId("erin", 1n);
      const t = await now();
      const human = devWorldId4Nullifier("erin", RP_ID, ACTION4);
      const good = (options: Parameters<typeof completion>[6] = {}) => completion(sessionId, receiver, SEED, 0n, human, t, options);
      const attempt = (u: UniquenessProof, s: SessionProof, to: Address = receiver) => oro.write.enrolInWorldId4Session([to, SEED, s, u], { account: alice.account });
      const erin = () => uniqueness("erin", receiver, sessionId, t);
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t, { rpId: RP_ID + 1n }), good()), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t, { issuerSchemaId: 9303n }), good()), "ProofInvalid");
      await expectRevert(attempt(erin(), good(), bob.account.address), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t, { action: worldId4ActionOf("another-action") }), good()), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", receiver, devSessionId("erin", 9n), t), good()), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", receiver, sessionId, t, { expiresAtMin: t - 6n * 3_600n }), good()), "ExpirationTooOld");
      await expectRevert(attempt(erin(), good({ issuerSchemaId: 11n })), "ProofInvalid");
      // The completing session proof must name this receiver, seed, human and no 3.0 history.
      await expectRevert(attempt(erin(), completion(sessionId, bob.account.address, SEED, 0n, human, t)), "ProofInvalid");
      await expectRevert(attempt(erin(), completion(sessionId, receiver, devSessionSeed("erin", 2n), 0n, human, t)), "ProofInvalid");
      await expectRevert(attempt(erin(), completion(sessionId, receiver, SEED, devNullifierHash("erin"), human, t)), "ProofInvalid");
      await expectRevert(attempt(erin(), completion(sessionId, receiver, SEED, 0n, devWorldId4Nullifier("frank", RP_ID, ACTION4), t)), "ProofInvalid");
      // The session's creation proof (its signal the receiver) does not complete an enrolment.
      await expectRevert(attempt(erin(), session(sessionId, receiver, t, { genesisMin: GENESIS_CUTOFF })), "ProofInvalid");
      await expectRevert(attempt(uniqueness("erin", zeroAddress, sessionId, t), good(), zeroAddress), "ERC20InvalidReceiver", [zeroAddress]);
    });

    it(version === "V2"
      ? "V2 refuses a session nullifier without the session prefix byte (0x02): InvalidAction"
      : "V1 checks no prefix byte: a session proof whose action lacks 0x02 still verifies, and still binds only its own session", async function () {
      const { oro, alice } = await loadFixture(deployFixture);
      const receiver = alice.account.address;
      const sessionId = devSessionId("erin", 1n);
      const t = await now();
      const enrolment = uniqueness("erin", receiver, sessionId, t);
      const unprefixed = completion(sessionId, receiver, SEED, 0n, enrolment.nullifier, t, { sessionNullifier: [1n, 5n] });
      const sent = oro.write.enrolInWorldId4Session([receiver, SEED, unprefixed, enrolment], { account: alice.account });
      if (version === "V2") {
        await expectRevert(sent, "InvalidAction");
      } else {
        await sent;
        expect((await oro.read.sessionMintData([sessionId]))[1]).to.equal(1);
      }
    });
  });

  describe(`World ID 4.0 (verifier ${version}): daily claims with a session proof`, function () {
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

  describe(`World ID 4.0 (verifier ${version}): the move from 3.0`, function () {
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

    it("refuses a 3.0 proof that chose another session or receiver, a session proof naming another history, a second move, and any move after 3.0 closed", async function () {
      const { oro, owner, alice, bob } = await loadFixture(deployFixture);
      await mintTo(oro, alice, "grace", alice.account.address);
      await expectRevert(move(oro, alice, "grace", "grace", 1n, devSessionId("mallory", 1n)).then((result) => result.hash), "InvalidProof");
      const receiver = alice.account.address;
      const args = await moveArgs(receiver, "grace", "grace");
      const otherReceiver = proofForSession("grace", bob.account.address, args[6].sessionId);
      await expectRevert(oro.write.moveToWorldId4Session([receiver, otherReceiver.root, otherReceiver.nullifierHash, args[3], args[4], otherReceiver.proof, args[6]], { account: alice.account }), "InvalidProof");
      const t = await now();
      const noHistory = completion(args[6].sessionId, receiver, args[3], 0n, args[4].nullifier, t, { genesisMin: 0n });
      await expectRevert(oro.write.moveToWorldId4Session([args[0], args[1], args[2], args[3], args[4], args[5], noHistory], { account: alice.account }), "ProofInvalid");
      await move(oro, alice, "grace", "grace");
      await expectRevert(move(oro, alice, "grace", "grace-again", 1n).then((result) => result.hash), "MovedToWorldId4", [devNullifierHash("grace")]);
      await oro.write.closeWorldId3({ account: owner.account });
      await expectRevert(move(oro, alice, "henry", "henry").then((result) => result.hash), "WorldId3IsClosed");
      await expectRevert(mintTo(oro, alice, "henry", alice.account.address), "WorldId3IsClosed");
    });
  });

  describe(`World ID 4.0 (verifier ${version}): the owner's controls`, function () {
    it("updates the verifier (not to an address without code), fixes the settings at the first enrolment, closes 3.0 once", async function () {
      const { oro, owner, alice, verifier } = await loadFixture(deployFixture);
      const other = await hre.viem.deployContract("MockWorldIdVerifier", [1, [RP_ID]]);
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
}
