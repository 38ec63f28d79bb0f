import { expect } from "chai";
import { loadFixture } from "@nomicfoundation/hardhat-network-helpers";
import { zeroAddress } from "viem";
import { deployFixture } from "./fixtures";
import { expectRevert, revertOf } from "./helpers";

// The assertions of the whole suite rest on expectRevert: it must fail when the error or its arguments differ.
describe("test helpers", function () {
  it("decodes a custom error of the called contract with its arguments", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    expect(await revertOf(oro.write.transfer([zeroAddress, 1n], { account: alice.account }))).to.deep.equal({
      errorName: "ERC20InvalidReceiver",
      args: [zeroAddress],
    });
  });

  it("decodes an error raised by another contract (the router's InvalidProof through Oro)", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    expect(await revertOf(oro.write.mint([1n, 2n, [3n, 0n, 0n, 0n, 0n, 0n, 0n, 0n]], { account: alice.account }))).to.deep.equal({
      errorName: "InvalidProof",
      args: [],
    });
  });

  it("fails on another error name, other arguments, or no revert at all", async function () {
    const { oro, alice, bob } = await loadFixture(deployFixture);
    const transfer = () => oro.write.transfer([bob.account.address, 1n], { account: alice.account });
    expect(await failureOf(expectRevert(transfer(), "ERC20InvalidReceiver", [alice.account.address]))).to.match(
      /expected .* to deeply equal/,
    );
    expect(await failureOf(expectRevert(transfer(), "ERC20InsufficientBalance", [alice.account.address, 0n, 2n]))).to.match(
      /expected .* to deeply equal/,
    );
    await expectRevert(transfer(), "ERC20InsufficientBalance", [alice.account.address, 0n, 1n]);
    expect(
      await failureOf(expectRevert(oro.write.approve([bob.account.address, 1n], { account: alice.account }), "ERC20InvalidSpender")),
    ).to.equal("expected a revert, but the call succeeded");
  });
});

/** The message an assertion failed with (the test fails if the assertion passed). */
async function failureOf(assertion: Promise<void>): Promise<string> {
  try {
    await assertion;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return expect.fail("the assertion was expected to fail");
}
