import hre from "hardhat";
import { expect } from "chai";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { getAddress, parseEther, zeroAddress } from "viem";
import type { ContractTypesMap } from "hardhat/types/artifacts";
import {
  WORLD_ID_GROUP_ID,
  buildDevWorldId4Proof,
  worldId4ActionOf,
  type DevWorldId4Inputs,
  devNullifierHash,
  externalNullifierHashOf,
  signalHashOf,
  type WorldIdProof,
} from "@oro/clients";
import { ACTION, AMOUNT_PER_MINT, APP_ID, CHAIN_ID, WAIT_BETWEEN_MINTS, deployFixture, worldId4Settings, expectBalance, mintTo, proofFor } from "./fixtures";
import { event, expectRevert, logsOf } from "./helpers";
import { inspectWorldIdVerifier } from "../lib/world-id-verifier";

type Verifier = ContractTypesMap["MockWorldIdVerifier"];

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

describe("MockWorldIdVerifier, as World's V1 and V2", function () {
  const FIELD = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
  const RP = 0x7a69n;
  const inputs = (overrides: Partial<DevWorldId4Inputs> = {}): DevWorldId4Inputs => ({
    nullifier: 11n, action: worldId4ActionOf("oro-enrolment"), rpId: RP, nonce: 3n, signalHash: 5n, expiresAtMin: 0n,
    issuerSchemaId: 1n, credentialGenesisIssuedAtMin: 0n, ...overrides,
  });

  for (const [index, version] of (["V1", "V2"] as const).entries()) {
    describe(version, function () {
      async function verifierFixture() {
        const verifier = await hre.viem.deployContract("MockWorldIdVerifier", [index, [RP]]);
        const now = (await time.latest()) + 1;
        return { verifier, now: BigInt(now) };
      }
      const verify = (verifier: Verifier, i: DevWorldId4Inputs, proof = buildDevWorldId4Proof(i)) =>
        verifier.read.verify([i.nullifier, i.action, i.rpId, i.nonce, i.signalHash, i.expiresAtMin, i.issuerSchemaId ?? 1n, i.credentialGenesisIssuedAtMin ?? 0n, proof]);

      it("accepts a development proof and refuses, in World's order: root, issuer schema, rp id's OPRF key, expiry, field, proof", async function () {
        const { verifier, now } = await loadFixture(verifierFixture);
        const good = inputs({ expiresAtMin: now });
        expect(await verify(verifier, good)).to.equal(undefined);
        const proof = buildDevWorldId4Proof(good);
        await expectRevert(verify(verifier, good, [proof[0], 0n, 0n, 0n, 1n]), "InvalidMerkleRoot");
        await expectRevert(verify(verifier, inputs({ expiresAtMin: now, issuerSchemaId: 2n })), "UnregisteredIssuerSchemaId");
        // An rp id without an OPRF key fails as World's OprfKeyRegistry does, whatever else the proof says.
        await expectRevert(verify(verifier, inputs({ expiresAtMin: now, rpId: RP + 1n })), "UnknownId", [RP + 1n]);
        await expectRevert(verify(verifier, inputs({ expiresAtMin: now - 5n * 3_600n - 2n })), "ExpirationTooOld");
        for (const field of ["nullifier", "nonce", "signalHash", "credentialGenesisIssuedAtMin"] as const) {
          await expectRevert(verify(verifier, inputs({ expiresAtMin: now, [field]: FIELD })), "PublicInputNotInField");
        }
        await expectRevert(verify(verifier, good, [proof[0] + 1n, 0n, 0n, 0n, proof[4]]), "ProofInvalid");
      });

      it("adds the expiry threshold in uint64, as World's code: an expiry near 2^64 overflows (a panic), it does not pass", async function () {
        const { verifier } = await loadFixture(verifierFixture);
        const far = inputs({ expiresAtMin: 2n ** 64n - 1n });
        await expectRevert(verify(verifier, far), "Panic", [0x11n]);
        // A far but representable expiry (an enrolment proof asked to last long) passes.
        expect(await verify(verifier, inputs({ expiresAtMin: 2n ** 63n }))).to.equal(undefined);
      });

      it(version === "V2" ? "checks the action's prefix byte (0x00 uniqueness, 0x02 session)" : "checks no action prefix byte", async function () {
        const { verifier, now } = await loadFixture(verifierFixture);
        const prefixed = inputs({ expiresAtMin: now, action: (1n << 248n) | 9n });
        if (version === "V2") await expectRevert(verify(verifier, prefixed), "InvalidAction");
        else expect(await verify(verifier, prefixed)).to.equal(undefined);
      });
    });
  }

  it("the deploy's inspection reads the implementation behind an EIP-1967 proxy and tells V1 from V2 by behaviour", async function () {
    const publicClient = await hre.viem.getPublicClient();
    for (const [index, version] of (["V1", "V2"] as const).entries()) {
      const implementation = await hre.viem.deployContract("MockWorldIdVerifier", [index, [RP]]);
      const proxy = await hre.viem.deployContract("WorldIdVerifierProxy", [implementation.address]);
      expect(await inspectWorldIdVerifier(publicClient, proxy.address)).to.deep.equal({
        proxy: getAddress(proxy.address), implementation: getAddress(implementation.address), version,
      });
      // Not a proxy: no implementation, still told apart by behaviour.
      expect((await inspectWorldIdVerifier(publicClient, implementation.address)).implementation).to.equal(null);
    }
    const noop = await hre.viem.deployContract("NoopWorldIdVerifier");
    expect((await inspectWorldIdVerifier(publicClient, noop.address)).version).to.equal("unknown");
  });
});
