import hre from "hardhat";
import { expect } from "chai";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import {
  concat,
  getTypesForEIP712Domain,
  hashDomain,
  hashTypedData,
  keccak256,
  numberToHex,
  padHex,
  parseEther,
  parseSignature,
  recoverTypedDataAddress,
  slice,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
} from "viem";
import {
  AMOUNT_PER_MINT,
  MAX_UINT256,
  VOUCHER_TYPES,
  deployFixture,
  expectBalance,
  mintTo,
  signVoucher,
  voucherDomain,
  type Voucher,
  type VoucherDomain,
} from "./fixtures";
import { decodeLogs, event, expectRevert, logsOf } from "./helpers";

const FUNDING = parseEther("1000");
/** The order of secp256k1's group: a signature with s > N/2 is the malleable twin of one with N - s. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

async function claimFixture() {
  const deployment = await deployFixture();
  const { oro, owner, alice, claim } = deployment;
  // Fund the claim contract the way a development chain does: a mint whose receiver is the contract.
  await oro.write.setAmountPerMint([FUNDING], { account: owner.account });
  await mintTo(oro, alice, "treasury", claim.address);
  await oro.write.setAmountPerMint([AMOUNT_PER_MINT], { account: owner.account });
  const domain = voucherDomain(claim.address);
  return { ...deployment, domain };
}

async function recoveredBy(domain: VoucherDomain, voucher: Voucher, signature: Hex): Promise<Address> {
  return recoverTypedDataAddress({ domain, types: VOUCHER_TYPES, primaryType: "Voucher", message: voucher, signature });
}

function digestOf(domain: VoucherDomain, voucher: Voucher): Hex {
  return hashTypedData({ domain, types: VOUCHER_TYPES, primaryType: "Voucher", message: voucher });
}

describe("ReferralClaim: deployment", function () {
  it("keeps the token, the signer, the owner and the voucher type hash", async function () {
    const { claim, oro, signer, owner } = await loadFixture(claimFixture);
    expect((await claim.read.token()).toLowerCase()).to.equal(oro.address.toLowerCase());
    expect((await claim.read.signer()).toLowerCase()).to.equal(signer.account.address.toLowerCase());
    expect((await claim.read.owner()).toLowerCase()).to.equal(owner.account.address.toLowerCase());
    expect(await claim.read.paused()).to.equal(false);
    expect(await claim.read.VOUCHER_TYPEHASH()).to.equal(
      keccak256(toHex("Voucher(address account,uint256 amount,uint256 nonce)")),
    );
  });

  it("emits OwnershipTransferred and SignerUpdated(0x0, signer)", async function () {
    const { claim, owner, signer, publicClient } = await loadFixture(claimFixture);
    const logs = await publicClient.getLogs({ address: claim.address, fromBlock: 0n });
    expect(await decodeLogs(logs)).to.deep.equal([
      event(claim.address, "OwnershipTransferred", { previousOwner: zeroAddress, newOwner: owner.account.address }),
      event(claim.address, "SignerUpdated", { oldSigner: zeroAddress, newSigner: signer.account.address }),
    ]);
  });

  it("refuses the zero token and the zero signer", async function () {
    const { oro, signer, owner } = await loadFixture(claimFixture);
    await expectRevert(
      hre.viem.deployContract("ReferralClaim", [zeroAddress, signer.account.address, owner.account.address]),
      "InvalidToken",
    );
    await expectRevert(hre.viem.deployContract("ReferralClaim", [oro.address, zeroAddress, owner.account.address]), "InvalidSigner");
  });

  it("exposes the EIP-712 domain that viem hashes to the same separator", async function () {
    const { claim, domain } = await loadFixture(claimFixture);
    const eip712DomainType = [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ] as const;
    expect(getTypesForEIP712Domain({ domain })).to.deep.equal(eip712DomainType);
    const expected = hashDomain({
      domain: { ...domain, chainId: BigInt(domain.chainId) },
      types: { EIP712Domain: eip712DomainType },
    });
    expect(await claim.read.domainSeparator()).to.equal(expected);
    const [fields, name, version, chainId, verifyingContract] = await claim.read.eip712Domain();
    expect([fields, name, version, chainId, verifyingContract.toLowerCase()]).to.deep.equal([
      "0x0f",
      "ORO ReferralClaim",
      "1",
      31337n,
      claim.address.toLowerCase(),
    ]);
  });
});

describe("ReferralClaim: claim", function () {
  it("pays the voucher's account whoever submits it and marks the nonce used", async function () {
    const { claim, oro, signer, alice, bob, domain } = await loadFixture(claimFixture);
    const voucher = { account: alice.account.address, amount: parseEther("3"), nonce: 7n };
    const signature = await signVoucher(signer, domain, voucher);
    expect(await claim.read.isNonceUsed([7n])).to.equal(false);

    const hash = await claim.write.claim([voucher, signature], { account: bob.account });
    expect(await logsOf(hash)).to.deep.equal([
      event(claim.address, "VoucherClaimed", {
        account: alice.account.address,
        nonce: 7n,
        amount: parseEther("3"),
        submitter: bob.account.address,
      }),
      event(oro.address, "Transfer", { from: claim.address, to: alice.account.address, value: parseEther("3") }),
    ]);
    await expectBalance(oro, alice.account.address, parseEther("3"));
    await expectBalance(oro, bob.account.address, 0n);
    await expectBalance(oro, claim.address, FUNDING - parseEther("3"));
    expect(await claim.read.isNonceUsed([7n])).to.equal(true);
    expect(await claim.read.nonceBitmap([0n])).to.equal(1n << 7n);
  });

  it("lets the account submit its own voucher", async function () {
    const { claim, oro, signer, alice, domain } = await loadFixture(claimFixture);
    const voucher = { account: alice.account.address, amount: 1n, nonce: 0n };
    await claim.write.claim([voucher, await signVoucher(signer, domain, voucher)], { account: alice.account });
    await expectBalance(oro, alice.account.address, 1n);
  });

  it("pays each nonce once: a replay, or another voucher with the same nonce, reverts VoucherAlreadyClaimed", async function () {
    const { claim, oro, signer, alice, bob, domain } = await loadFixture(claimFixture);
    const voucher = { account: alice.account.address, amount: parseEther("1"), nonce: 42n };
    const signature = await signVoucher(signer, domain, voucher);
    await claim.write.claim([voucher, signature], { account: alice.account });
    await expectRevert(claim.write.claim([voucher, signature], { account: bob.account }), "VoucherAlreadyClaimed", [42n]);

    const sameNonce = { account: bob.account.address, amount: parseEther("2"), nonce: 42n };
    await expectRevert(
      claim.write.claim([sameNonce, await signVoucher(signer, domain, sameNonce)], { account: bob.account }),
      "VoucherAlreadyClaimed",
      [42n],
    );
    await expectBalance(oro, alice.account.address, parseEther("1"));
    await expectBalance(oro, bob.account.address, 0n);
  });

  it("refuses a voucher signed by another key with WrongSigner(recovered, signer)", async function () {
    const { claim, signer, mallory, domain } = await loadFixture(claimFixture);
    const voucher = { account: mallory.account.address, amount: parseEther("1"), nonce: 1n };
    await expectRevert(
      claim.write.claim([voucher, await signVoucher(mallory, domain, voucher)], { account: mallory.account }),
      "WrongSigner",
      [mallory.account.address, signer.account.address],
    );
    expect(await claim.read.isNonceUsed([1n])).to.equal(false);
  });

  it("refuses a voucher whose amount or account was changed after signing", async function () {
    const { claim, signer, alice, mallory, domain } = await loadFixture(claimFixture);
    const voucher = { account: alice.account.address, amount: parseEther("1"), nonce: 3n };
    const signature = await signVoucher(signer, domain, voucher);
    for (const tampered of [
      { ...voucher, amount: parseEther("100") },
      { ...voucher, account: mallory.account.address },
      { ...voucher, nonce: 4n },
    ]) {
      const recovered = await recoveredBy(domain, tampered, signature);
      expect(recovered.toLowerCase()).to.not.equal(signer.account.address.toLowerCase());
      await expectRevert(claim.write.claim([tampered, signature], { account: mallory.account }), "WrongSigner", [
        recovered,
        signer.account.address,
      ]);
    }
  });

  it("refuses a voucher signed for another chain, contract, name or version", async function () {
    const { claim, oro, signer, alice, domain } = await loadFixture(claimFixture);
    const voucher = { account: alice.account.address, amount: parseEther("1"), nonce: 5n };
    for (const otherDomain of [
      { ...domain, chainId: 480 },
      { ...domain, verifyingContract: oro.address },
      { ...domain, name: "ORO" },
      { ...domain, version: "2" },
    ]) {
      const signature = await signVoucher(signer, otherDomain, voucher);
      const recovered = await recoveredBy(domain, voucher, signature);
      expect(recovered.toLowerCase()).to.not.equal(signer.account.address.toLowerCase());
      await expectRevert(claim.write.claim([voucher, signature], { account: alice.account }), "WrongSigner", [
        recovered,
        signer.account.address,
      ]);
    }
    await expectBalance(oro, alice.account.address, 0n);
  });

  it("refuses to pay more than its balance with the token's ERC20InsufficientBalance, and keeps the nonce", async function () {
    const { claim, signer, alice, domain } = await loadFixture(claimFixture);
    const voucher = { account: alice.account.address, amount: FUNDING + 1n, nonce: 11n };
    await expectRevert(
      claim.write.claim([voucher, await signVoucher(signer, domain, voucher)], { account: alice.account }),
      "ERC20InsufficientBalance",
      [claim.address, FUNDING, FUNDING + 1n],
    );
    expect(await claim.read.isNonceUsed([11n])).to.equal(false);
  });

  it("refuses a voucher paying the zero address with the token's ERC20InvalidReceiver", async function () {
    const { claim, signer, alice, domain } = await loadFixture(claimFixture);
    const voucher = { account: zeroAddress, amount: 1n, nonce: 12n };
    await expectRevert(
      claim.write.claim([voucher, await signVoucher(signer, domain, voucher)], { account: alice.account }),
      "ERC20InvalidReceiver",
      [zeroAddress],
    );
  });
});

describe("ReferralClaim: claim with malformed signatures", function () {
  async function malformed() {
    const deployment = await loadFixture(claimFixture);
    const voucher = { account: deployment.alice.account.address, amount: parseEther("1"), nonce: 9n };
    const signature = await signVoucher(deployment.signer, deployment.domain, voucher);
    const { r, s, yParity } = parseSignature(signature);
    const withV = (v: number): Hex => concat([r, s, numberToHex(v, { size: 1 })]);
    const highS = concat([r, padHex(numberToHex(SECP256K1_N - BigInt(s)), { size: 32 }), numberToHex(28 - yParity, { size: 1 })]);
    const cases: Array<[string, Hex]> = [
      ["64 bytes (compact form)", slice(signature, 0, 64)],
      ["66 bytes", concat([signature, "0x00"])],
      ["empty", "0x"],
      ["high s (the malleable twin)", highS],
      ["v = 29", withV(29)],
      ["v = 0", withV(0)],
      ["v = 1", withV(1)],
      ["r = 0", concat([padHex("0x0", { size: 32 }), s, numberToHex(27 + yParity, { size: 1 })])],
    ];
    return { ...deployment, voucher, signature, highS, cases };
  }

  it("the high-s twin is a signature the ecrecover precompile accepts (so only the malleability check refuses it)", async function () {
    const { publicClient, signer, domain, voucher, highS } = await malformed();
    const { r, s, v } = parseSignature(highS);
    if (v === undefined) throw new Error("the twin has a v");
    const input = concat([digestOf(domain, voucher), padHex(numberToHex(v), { size: 32 }), r, s]);
    const { data } = await publicClient.call({ to: "0x0000000000000000000000000000000000000001", data: input });
    if (data === undefined) throw new Error("ecrecover returned nothing");
    expect(slice(data, 12).toLowerCase()).to.equal(signer.account.address.toLowerCase());
    expect(BigInt(s) > SECP256K1_N / 2n).to.equal(true);
  });

  it("reverts MalformedSignature() for every malformed form, and the well-formed one pays", async function () {
    const { claim, oro, alice, voucher, signature, cases } = await malformed();
    for (const [label, bad] of cases) {
      try {
        await expectRevert(claim.write.claim([voucher, bad], { account: alice.account }), "MalformedSignature");
      } catch (error) {
        throw new Error(`${label}: ${String(error)}`);
      }
    }
    await claim.write.claim([voucher, signature], { account: alice.account });
    await expectBalance(oro, alice.account.address, parseEther("1"));
  });

  it("previewClaim reports the zero address as the signer of a malformed signature", async function () {
    const { claim, voucher, domain, cases } = await malformed();
    for (const [label, bad] of cases) {
      const preview = await claim.read.previewClaim([voucher.account, voucher.amount, voucher.nonce, bad]);
      expect(preview, label).to.deep.equal([0n, false, digestOf(domain, voucher), zeroAddress]);
    }
  });
});

describe("ReferralClaim: nonces", function () {
  it("keeps nonces in the same bitmap word and in other words independent", async function () {
    const { claim, signer, alice, domain } = await loadFixture(claimFixture);
    const claimNonce = async (nonce: bigint): Promise<void> => {
      const voucher = { account: alice.account.address, amount: 1n, nonce };
      await claim.write.claim([voucher, await signVoucher(signer, domain, voucher)], { account: alice.account });
    };
    await claimNonce(5n);
    expect(await claim.read.isNonceUsed([5n])).to.equal(true);
    for (const neighbour of [4n, 6n, 255n, 256n + 5n, 0n]) {
      expect(await claim.read.isNonceUsed([neighbour]), `nonce ${neighbour}`).to.equal(false);
    }
    await claimNonce(6n);
    await claimNonce(256n + 5n);
    await claimNonce(MAX_UINT256);
    expect(await claim.read.nonceBitmap([0n])).to.equal((1n << 5n) | (1n << 6n));
    expect(await claim.read.nonceBitmap([1n])).to.equal(1n << 5n);
    expect(await claim.read.nonceBitmap([MAX_UINT256 >> 8n])).to.equal(1n << 255n);
    for (const used of [5n, 6n, 261n, MAX_UINT256]) expect(await claim.read.isNonceUsed([used])).to.equal(true);
    for (const unused of [4n, 7n, 260n, 262n, MAX_UINT256 - 1n]) expect(await claim.read.isNonceUsed([unused])).to.equal(false);
  });
});

describe("ReferralClaim: previewClaim", function () {
  it("reports the nonce word, the claim status, the digest and the signer", async function () {
    const { claim, signer, alice, domain } = await loadFixture(claimFixture);
    const voucher = { account: alice.account.address, amount: parseEther("2"), nonce: 1000n };
    const signature = await signVoucher(signer, domain, voucher);
    const digest = digestOf(domain, voucher);
    const args = [voucher.account, voucher.amount, voucher.nonce, signature] as const;

    const [nonceId, wasClaimed, previewDigest, recovered] = await claim.read.previewClaim(args);
    expect([nonceId, wasClaimed, previewDigest, recovered.toLowerCase()]).to.deep.equal([
      1000n >> 8n,
      false,
      digest,
      signer.account.address.toLowerCase(),
    ]);
    await claim.write.claim([voucher, signature], { account: alice.account });
    const [, wasClaimedAfter] = await claim.read.previewClaim(args);
    expect(wasClaimedAfter).to.equal(true);
  });

  it("reports another signer's address as recovered", async function () {
    const { claim, mallory, alice, domain } = await loadFixture(claimFixture);
    const voucher = { account: alice.account.address, amount: 1n, nonce: 2n };
    const [, , , recovered] = await claim.read.previewClaim([
      voucher.account,
      voucher.amount,
      voucher.nonce,
      await signVoucher(mallory, domain, voucher),
    ]);
    expect(recovered.toLowerCase()).to.equal(mallory.account.address.toLowerCase());
  });
});

describe("ReferralClaim: owner controls", function () {
  it("pause stops claims with EnforcedPause() and unpause lets them through again", async function () {
    const { claim, oro, owner, signer, alice, domain } = await loadFixture(claimFixture);
    const voucher = { account: alice.account.address, amount: parseEther("1"), nonce: 1n };
    const signature = await signVoucher(signer, domain, voucher);

    expect(await logsOf(await claim.write.pause({ account: owner.account }))).to.deep.equal([
      event(claim.address, "Paused", { account: owner.account.address }),
    ]);
    expect(await claim.read.paused()).to.equal(true);
    await expectRevert(claim.write.claim([voucher, signature], { account: alice.account }), "EnforcedPause");
    await expectRevert(claim.write.pause({ account: owner.account }), "EnforcedPause");

    expect(await logsOf(await claim.write.unpause({ account: owner.account }))).to.deep.equal([
      event(claim.address, "Unpaused", { account: owner.account.address }),
    ]);
    await expectRevert(claim.write.unpause({ account: owner.account }), "ExpectedPause");
    await claim.write.claim([voucher, signature], { account: alice.account });
    await expectBalance(oro, alice.account.address, parseEther("1"));
  });

  it("pause, unpause, setSigner and sweep are owner-only", async function () {
    const { claim, owner, mallory } = await loadFixture(claimFixture);
    const unauthorized = [mallory.account.address];
    await expectRevert(claim.write.pause({ account: mallory.account }), "OwnableUnauthorizedAccount", unauthorized);
    await claim.write.pause({ account: owner.account });
    await expectRevert(claim.write.unpause({ account: mallory.account }), "OwnableUnauthorizedAccount", unauthorized);
    await expectRevert(claim.write.setSigner([mallory.account.address], { account: mallory.account }), "OwnableUnauthorizedAccount", unauthorized);
    await expectRevert(claim.write.sweep([mallory.account.address, 1n], { account: mallory.account }), "OwnableUnauthorizedAccount", unauthorized);
    expect(await claim.read.paused()).to.equal(true);
  });

  it("setSigner rotates the key: old-key vouchers fail, new-key vouchers pay", async function () {
    const { claim, oro, owner, signer, carol, alice, domain } = await loadFixture(claimFixture);
    const oldVoucher = { account: alice.account.address, amount: parseEther("1"), nonce: 1n };
    const oldSignature = await signVoucher(signer, domain, oldVoucher);

    const hash = await claim.write.setSigner([carol.account.address], { account: owner.account });
    expect(await logsOf(hash)).to.deep.equal([
      event(claim.address, "SignerUpdated", { oldSigner: signer.account.address, newSigner: carol.account.address }),
    ]);
    expect((await claim.read.signer()).toLowerCase()).to.equal(carol.account.address.toLowerCase());
    await expectRevert(claim.write.claim([oldVoucher, oldSignature], { account: alice.account }), "WrongSigner", [
      signer.account.address,
      carol.account.address,
    ]);

    const newVoucher = { account: alice.account.address, amount: parseEther("2"), nonce: 2n };
    await claim.write.claim([newVoucher, await signVoucher(carol, domain, newVoucher)], { account: alice.account });
    await expectBalance(oro, alice.account.address, parseEther("2"));
  });

  it("setSigner refuses the zero address", async function () {
    const { claim, owner, signer } = await loadFixture(claimFixture);
    await expectRevert(claim.write.setSigner([zeroAddress], { account: owner.account }), "InvalidSigner");
    expect((await claim.read.signer()).toLowerCase()).to.equal(signer.account.address.toLowerCase());
  });

  it("sweep sends funds and emits Swept; more than the balance reverts with the token's error", async function () {
    const { claim, oro, owner, bob } = await loadFixture(claimFixture);
    const hash = await claim.write.sweep([bob.account.address, parseEther("400")], { account: owner.account });
    expect(await logsOf(hash)).to.deep.equal([
      event(claim.address, "Swept", { to: bob.account.address, amount: parseEther("400") }),
      event(oro.address, "Transfer", { from: claim.address, to: bob.account.address, value: parseEther("400") }),
    ]);
    await expectBalance(oro, bob.account.address, parseEther("400"));
    await expectBalance(oro, claim.address, parseEther("600"));
    await expectRevert(
      claim.write.sweep([bob.account.address, parseEther("600") + 1n], { account: owner.account }),
      "ERC20InsufficientBalance",
      [claim.address, parseEther("600"), parseEther("600") + 1n],
    );
    await claim.write.sweep([owner.account.address, parseEther("600")], { account: owner.account });
    await expectBalance(oro, claim.address, 0n);
  });

  it("hands ownership over in two steps", async function () {
    const { claim, owner, carol } = await loadFixture(claimFixture);
    await claim.write.transferOwnership([carol.account.address], { account: owner.account });
    await claim.write.acceptOwnership({ account: carol.account });
    expect((await claim.read.owner()).toLowerCase()).to.equal(carol.account.address.toLowerCase());
    await claim.write.pause({ account: carol.account });
    await expectRevert(claim.write.unpause({ account: owner.account }), "OwnableUnauthorizedAccount", [owner.account.address]);
  });
});
