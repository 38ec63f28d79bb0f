import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import hre from "hardhat";
import { reset } from "@nomicfoundation/hardhat-network-helpers";
import { getAddress, parseEther } from "viem";
import { deployAll, resolveSettings } from "../deploy/deploy";
import { DEPLOYMENTS_DIR, readDeployment, useDeploymentsDir, type Deployment } from "../deploy/deployment";
import { DEV_ACCOUNTS } from "../lib/dev-accounts";

/** Runs a Hardhat task and returns what it printed. */
async function runTask(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const printed: string[] = [];
  const original = console.log;
  console.log = (...values: unknown[]) => {
    printed.push(values.map(String).join(" "));
  };
  try {
    await hre.run(name, args);
  } finally {
    console.log = original;
  }
  return printed.join("\n");
}

async function expectRefusal(name: string, args: Record<string, unknown>, message: RegExp): Promise<void> {
  let caught: unknown;
  try {
    await runTask(name, args);
  } catch (error) {
    caught = error;
  }
  expect(caught, `${name} should have refused`).to.be.instanceOf(Error);
  expect((caught as Error).message).to.match(message);
}

describe("deploy script and owner tasks", function () {
  let deployment: Deployment;

  before(async function () {
    useDeploymentsDir(mkdtempSync(path.join(tmpdir(), "oro-deployments-")));
    await reset(); // a fresh chain, as `pnpm start` gets
    deployment = (await deployAll(hre)).deployment;
  });

  after(async function () {
    useDeploymentsDir(DEPLOYMENTS_DIR);
    await reset();
  });

  it("deploys to the same addresses and blocks as the committed deployments/31337.json on a fresh chain", function () {
    const committed = JSON.parse(readFileSync(path.join(DEPLOYMENTS_DIR, "31337.json"), "utf8")) as Deployment;
    expect(deployment).to.deep.equal(committed);
  });

  it("configures the development chain: 0.5 ORO per 24 h, dev signer, funded claim contract and faucet", async function () {
    const oro = await hre.viem.getContractAt("Oro", deployment.contracts.Oro.address);
    const claims = await hre.viem.getContractAt("ReferralClaim", deployment.contracts.ReferralClaim.address);
    const faucet = deployment.contracts.TestModeFaucet;
    expect(faucet).to.not.equal(undefined);
    expect(await oro.read.amountPerMint()).to.equal(parseEther("0.5"));
    expect(await oro.read.waitBetweenMints()).to.equal(86_400n);
    expect(await oro.read.owner()).to.equal(DEV_ACCOUNTS.owner);
    expect(await claims.read.signer()).to.equal(DEV_ACCOUNTS.claimSigner);
    expect(await oro.read.balanceOf([claims.address])).to.equal(parseEther("15"));
    if (faucet) expect(await oro.read.balanceOf([faucet.address])).to.equal(parseEther("5"));
  });

  it("is idempotent: a second run sends nothing", async function () {
    const publicClient = await hre.viem.getPublicClient();
    const before = await publicClient.getBlockNumber();
    const again = await deployAll(hre);
    expect(again.deployedNow).to.equal(false);
    expect(again.deployment).to.deep.equal(deployment);
    expect(await publicClient.getBlockNumber()).to.equal(before);
  });

  it("refuses to deploy off the development chain without the real router, app id and signer", function () {
    expect(() => resolveSettings(480, false)).to.throw(/WORLD_ID_ROUTER_ADDRESS, WORLD_ID_VERIFIER_ADDRESS, WORLD_ID_RP_ID, WORLD_APP_ID, CLAIM_SIGNER_ADDRESS/);
  });

  it("status prints every setting, balance and address", async function () {
    const out = await runTask("status");
    expect(out).to.match(/amountPerMint\s+0\.5 ORO/);
    expect(out).to.match(/waitBetweenMints\s+86400 s \(1d\)/);
    expect(out).to.match(/killswitch\s+not pulled/);
    expect(out).to.include(deployment.contracts.Oro.address);
    expect(out).to.match(/balance\s+15 ORO/);
    expect(out).to.match(/claims\s+running/);
  });

  it("set-amount-per-mint takes decimal ORO and prints the change and the transaction", async function () {
    const out = await runTask("set-amount-per-mint", { amount: "1.25" });
    expect(out).to.match(/amountPerMint: 0\.5 ORO -> 1\.25 ORO\n {2}tx 0x[0-9a-f]{64}/);
    const oro = await hre.viem.getContractAt("Oro", deployment.contracts.Oro.address);
    expect(await oro.read.amountPerMint()).to.equal(parseEther("1.25"));
    await expectRefusal("set-amount-per-mint", { amount: "lots" }, /not an ORO amount/);
  });

  it("set-wait-between-mints takes 24h, 90m or seconds", async function () {
    expect(await runTask("set-wait-between-mints", { wait: "90m" })).to.match(/86400 s \(1d\) -> 5400 s \(1h 30m\)/);
    expect(await runTask("set-wait-between-mints", { wait: "3600" })).to.match(/5400 s \(1h 30m\) -> 3600 s \(1h\)/);
    await expectRefusal("set-wait-between-mints", { wait: "soon" }, /not a duration/);
  });

  it("set-external-nullifier, set-claim-signer, fund-claims, pause-claims and unpause-claims change what status shows", async function () {
    // The development chain is funded by mints at deploy, so its external nullifier is already fixed.
    await expectRefusal("set-external-nullifier", { appId: "app_staging_other", action: "claim-tokens-action" }, /fixed once ORO has been minted \(\d[\d.]* ORO exist\)/);
    const newSigner = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
    expect(await runTask("set-claim-signer", { signer: newSigner })).to.include(`-> ${newSigner}`);
    await expectRefusal("fund-claims", { amount: "1" }, /holds 0 ORO, less than the 1 ORO/);
    expect(await runTask("pause-claims")).to.include("running -> paused");
    await expectRefusal("pause-claims", {}, /already paused/);
    expect(await runTask("unpause-claims")).to.include("paused -> running");
    const status = await runTask("status");
    expect(status).to.match(/signer\s+0x90F79bf6EB2c4f870365E785982E1f101E93b906/);
    expect(status).to.match(/amountPerMint\s+1\.25 ORO/);
  });

  it("refuses a caller who is not the owner, naming the owner", async function () {
    const [, other] = await hre.viem.getWalletClients();
    if (!other) throw new Error("needs two accounts");
    const claims = await hre.viem.getContractAt("ReferralClaim", deployment.contracts.ReferralClaim.address);
    await claims.write.transferOwnership([other.account.address]);
    await claims.write.acceptOwnership({ account: other.account });
    await expectRefusal("pause-claims", {}, new RegExp(`is not the owner of ReferralClaim; the owner is ${getAddress(other.account.address)}`));
  });

  it("World ID: the verifier (never an address without code), the 4.0 settings until the first enrolment, closing 3.0", async function () {
    const oro = await hre.viem.getContractAt("Oro", deployment.contracts.Oro.address);
    expect(await runTask("status")).to.match(/World ID 3\.0\s+open/);
    await expectRefusal("set-world-id-verifier", {}, /--address is required/);
    await expectRefusal("set-world-id-verifier", { address: "0x000000000000000000000000000000000000dEaD" }, /has no code on this chain/);
    const verifier = deployment.contracts.WorldIdVerifier.address;
    expect(await runTask("set-world-id-verifier", { address: verifier })).to.include(`-> ${getAddress(verifier)}`);
    await expectRefusal("set-world-id-4-settings", { rpId: "app_oro" }, /rp_ followed by 16 hex digits/);
    await expectRefusal("set-world-id-4-settings", { rpId: "rp_0000000000007a69", genesisCutoff: "June" }, /must be unix seconds/);
    expect(await runTask("set-world-id-4-settings", { rpId: "rp_0000000000007a69", enrolmentAction: "oro-enrolment", genesisCutoff: "1780272000" }))
      .to.match(/enrolment action "oro-enrolment", genesis cut-off 2026-06-01T00:00:00.000Z/);
    await expectRefusal("close-world-id-3", { confirm: false, beforeCutoff: false }, /Run again with --confirm/);
    await expectRefusal("close-world-id-3", { confirm: true, beforeCutoff: false }, /before World's cut-off 2027-04-01/);
    expect(await runTask("close-world-id-3", { confirm: true, beforeCutoff: true })).to.match(/World ID 3\.0 closed/);
    expect((await oro.read.worldIdStatus())[0]).to.equal(true);
    expect(await runTask("status")).to.match(/World ID 3\.0\s+CLOSED/);
    await expectRefusal("close-world-id-3", { confirm: true, beforeCutoff: true }, /already closed/);
  });

  it("killswitch needs --confirm, then ends minting and every owner power", async function () {
    await expectRefusal("killswitch", { confirm: false }, /Run again with --confirm/);
    expect(await runTask("killswitch", { confirm: true })).to.match(/killswitch pulled/);
    expect(await runTask("status")).to.match(/killswitch\s+PULLED/);
    await expectRefusal("set-amount-per-mint", { amount: "1" }, /has no owner any more/);
  });

  it("refuses on a network without a deployment", async function () {
    useDeploymentsDir(mkdtempSync(path.join(tmpdir(), "oro-empty-")));
    await expectRefusal("status", {}, /wrong network: there is no ORO deployment for chain 31337/);
    expect(readDeployment(31337)).to.equal(undefined);
  });

  it("refuses when the recorded contracts are gone (the chain was restarted)", async function () {
    const dir = mkdtempSync(path.join(tmpdir(), "oro-restarted-"));
    useDeploymentsDir(dir);
    await deployAll(hre);
    await reset();
    await expectRefusal("status", {}, /has no code there \(was the local chain restarted/);
    const redeployed = await deployAll(hre);
    expect(redeployed.deployedNow).to.equal(true);
  });
});
