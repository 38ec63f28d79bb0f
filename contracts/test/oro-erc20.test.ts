import { expect } from "chai";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { parseEther, zeroAddress } from "viem";
import { AMOUNT_PER_MINT, MAX_UINT256, deployFixture, expectBalance, mintSelf } from "./fixtures";
import { event, expectRevert, logsOf } from "./helpers";

// Oro as an ERC20: transfers, approvals and allowances.
describe("Oro: ERC20", function () {
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
