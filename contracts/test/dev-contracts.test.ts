import hre from "hardhat";
import { expect } from "chai";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { parseEther, zeroAddress } from "viem";
import {
  WORLD_ID_GROUP_ID,
  devNullifierHash,
  externalNullifierHashOf,
  signalHashOf,
  type WorldIdProof,
} from "@oro/clients";
import { ACTION, AMOUNT_PER_MINT, APP_ID, CHAIN_ID, WAIT_BETWEEN_MINTS, deployFixture, worldId4Settings, expectBalance, mintTo, proofFor } from "./fixtures";
import { event, expectRevert, logsOf } from "./helpers";

describe("MockWorldIdRouter", function () {
  async function verifyArgsFixture() {
    const deployment = await deployFixture();
    const receiver = deployment.alice.account.address;
    const { root, nullifierHash, proof } = proofFor("alice", receiver);
    const args = {
      root,
      groupId: WORLD_ID_GROUP_ID,
      signalHash: signalHashOf(receiver),
      nullifierHash,
      externalNullifierHash: externalNullifierHashOf(APP_ID, ACTION),
      proof,
    };
    return { ...deployment, args };
  }

  type VerifyArgs = Awaited<ReturnType<typeof verifyArgsFixture>>["args"];

  function asCall(args: VerifyArgs) {
    return [args.root, args.groupId, args.signalHash, args.nullifierHash, args.externalNullifierHash, args.proof] as const;
  }

  it("accepts a proof made by buildDevProof with the same signal, human and external nullifier", async function () {
    const { router, args } = await loadFixture(verifyArgsFixture);
    expect(await router.read.verifyProof(asCall(args))).to.equal(undefined);
  });

  it("rejects the proof when any public input differs", async function () {
    const { router, args } = await loadFixture(verifyArgsFixture);
    const variants: Array<[string, VerifyArgs]> = [
      ["root", { ...args, root: args.root + 1n }],
      ["group id 0", { ...args, groupId: 0n }],
      ["group id 2", { ...args, groupId: 2n }],
      ["signal", { ...args, signalHash: signalHashOf(zeroAddress) }],
      ["nullifier", { ...args, nullifierHash: devNullifierHash("bob") }],
      ["external nullifier", { ...args, externalNullifierHash: externalNullifierHashOf(APP_ID, "other") }],
    ];
    for (const [label, variant] of variants) {
      try {
        await expectRevert(router.read.verifyProof(asCall(variant)), "InvalidProof");
      } catch (error) {
        throw new Error(`${label}: ${String(error)}`);
      }
    }
  });

  it("rejects the proof when any of its eight elements is changed", async function () {
    const { router, args } = await loadFixture(verifyArgsFixture);
    for (let index = 0; index < 8; index++) {
      const proof = args.proof.map((value, i) => (i === index ? value + 1n : value)) as unknown as WorldIdProof;
      await expectRevert(router.read.verifyProof(asCall({ ...args, proof })), "InvalidProof");
    }
  });
});

describe("NoopWorldIdRouter", function () {
  it("accepts any proof, and an Oro wired to it mints without a valid one", async function () {
    const { owner, alice } = await loadFixture(deployFixture);
    const noop = await hre.viem.deployContract("NoopWorldIdRouter");
    const garbage = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n] as const;
    expect(await noop.read.verifyProof([0n, 0n, 0n, 0n, 0n, garbage])).to.equal(undefined);
    expect(await noop.read.verifyProof([2n ** 256n - 1n, 5n, 1n, 2n, 3n, [0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n]])).to.equal(undefined);

    const noopVerifier = await hre.viem.deployContract("NoopWorldIdVerifier");
    const benchOro = await hre.viem.deployContract("Oro", [
      noop.address, APP_ID, ACTION, CHAIN_ID, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, owner.account.address, worldId4Settings(noopVerifier.address),
    ]);
    await benchOro.write.mint([0x1234n, 0xa11cen, garbage], { account: alice.account });
    await expectBalance(benchOro, alice.account.address, AMOUNT_PER_MINT);
  });
});

describe("TestModeFaucet", function () {
  async function fundedFaucetFixture() {
    const deployment = await deployFixture();
    // Two mints of 0.5 ORO to the faucet: enough for exactly two claims.
    await mintTo(deployment.oro, deployment.alice, "faucet-funder-1", deployment.faucet.address);
    await mintTo(deployment.oro, deployment.alice, "faucet-funder-2", deployment.faucet.address);
    return deployment;
  }

  it("keeps its token and amount", async function () {
    const { faucet, oro } = await loadFixture(deployFixture);
    expect((await faucet.read.token()).toLowerCase()).to.equal(oro.address.toLowerCase());
    expect(await faucet.read.amountPerClaim()).to.equal(AMOUNT_PER_MINT);
  });

  it("pays amountPerClaim to the caller and emits FaucetClaimed", async function () {
    const { faucet, oro, bob } = await loadFixture(fundedFaucetFixture);
    const hash = await faucet.write.claim({ account: bob.account });
    expect(await logsOf(hash)).to.deep.equal([
      event(faucet.address, "FaucetClaimed", { account: bob.account.address, amount: AMOUNT_PER_MINT }),
      event(oro.address, "Transfer", { from: faucet.address, to: bob.account.address, value: AMOUNT_PER_MINT }),
    ]);
    await expectBalance(oro, bob.account.address, AMOUNT_PER_MINT);
    await expectBalance(oro, faucet.address, AMOUNT_PER_MINT);
  });

  it("pays until empty, then reverts with the token's ERC20InsufficientBalance", async function () {
    const { faucet, oro, bob, carol } = await loadFixture(fundedFaucetFixture);
    await faucet.write.claim({ account: bob.account });
    await faucet.write.claim({ account: bob.account });
    await expectBalance(oro, bob.account.address, 2n * AMOUNT_PER_MINT);
    await expectRevert(faucet.write.claim({ account: carol.account }), "ERC20InsufficientBalance", [
      faucet.address,
      0n,
      AMOUNT_PER_MINT,
    ]);
  });

  it("reverts with the balance it has when it holds less than one claim", async function () {
    const { faucet, oro, alice, bob } = await loadFixture(deployFixture);
    await mintTo(oro, alice, "alice", alice.account.address);
    await oro.write.transfer([faucet.address, parseEther("0.2")], { account: alice.account });
    await expectRevert(faucet.write.claim({ account: bob.account }), "ERC20InsufficientBalance", [
      faucet.address,
      parseEther("0.2"),
      AMOUNT_PER_MINT,
    ]);
  });
});
