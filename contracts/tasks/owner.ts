import { task, types } from "hardhat/config";
import { formatEther, getAddress, isAddress } from "viem";
import { rpIdOf } from "@oro/clients";
import { formatDuration, parseDuration, parseOro } from "../lib/units";
import { loadDeployedContracts, refuse, report, requireOwner } from "./context";

/**
 * The task's own check of a required option: declared optional to Hardhat, whose "expects a value" error would
 * come with its stack trace, so that a missing option is refused in one line like any other bad input.
 */
function required(option: string, value: string | undefined, example: string): string {
  if (value === undefined || value.trim() === "") refuse(`--${option} is required, e.g. --${option} ${example}`);
  return value;
}

/** Wraps an input parser so bad input is refused with its own message instead of a stack trace. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
}

task("set-amount-per-mint", "Sets how much ORO each mint gives (the owner only)")
  .addOptionalParam("amount", "required: ORO per mint as a decimal, e.g. 0.5", undefined, types.string)
  .setAction(async ({ amount }: { amount?: string }, hre) => {
    const newAmount = parsed(() => parseOro(required("amount", amount, "0.5")));
    const { publicClient, oro, caller } = await loadDeployedContracts(hre);
    requireOwner("Oro", await oro.read.owner(), caller);
    const oldAmount = await oro.read.amountPerMint();
    const hash = await oro.write.setAmountPerMint([newAmount]);
    await report(publicClient, hash, `amountPerMint: ${formatEther(oldAmount)} ORO -> ${formatEther(newAmount)} ORO`);
  });

task("set-wait-between-mints", "Sets the wait between two mints of one human (the owner only)")
  .addOptionalParam("wait", "required: 24h, 90m, 2d, 30s or plain seconds", undefined, types.string)
  .setAction(async ({ wait }: { wait?: string }, hre) => {
    const newWait = parsed(() => parseDuration(required("wait", wait, "24h")));
    const { publicClient, oro, caller } = await loadDeployedContracts(hre);
    requireOwner("Oro", await oro.read.owner(), caller);
    const oldWait = await oro.read.waitBetweenMints();
    const hash = await oro.write.setWaitBetweenMints([newWait]);
    await report(publicClient, hash, `waitBetweenMints: ${formatDuration(oldWait)} -> ${formatDuration(newWait)}`);
  });

task("set-external-nullifier", "Points minting at a World ID app id and action, before the first mint (the owner only)")
  .addOptionalParam("appId", "required: World developer portal app id, e.g. app_0123...", undefined, types.string)
  .addOptionalParam("action", "World ID action", "claim-tokens-action", types.string)
  .setAction(async ({ appId: given, action }: { appId?: string; action: string }, hre) => {
    const appId = required("app-id", given, "app_0123456789abcdef");
    if (!/^app_[A-Za-z0-9_]+$/.test(appId)) refuse(`"${appId}" is not a World app id (app_ followed by letters, digits or _)`);
    if (action.trim() === "") refuse("the action must not be empty");
    const { publicClient, oro, caller } = await loadDeployedContracts(hre);
    requireOwner("Oro", await oro.read.owner(), caller);
    const supply = await oro.read.totalSupply();
    if (supply !== 0n) {
      refuse(`the external nullifier is fixed once ORO has been minted (${formatEther(supply)} ORO exist): new nullifiers would give every human who minted, and every human who moved to World ID 4.0, a second identity`);
    }
    const oldHash = await oro.read.externalNullifierHash();
    const hash = await oro.write.setExternalNullifier([appId, action]);
    const newHash = await oro.read.externalNullifierHash();
    await report(publicClient, hash, `externalNullifierHash: ${oldHash} -> ${newHash} (app ${appId}, action ${action})`);
  });

task("killswitch", "IRREVERSIBLY ends minting and gives up ownership of the ORO token (the owner only)")
  .addFlag("confirm", "required: confirms you understand this cannot be undone")
  .setAction(async ({ confirm }: { confirm: boolean }, hre) => {
    if (!confirm) {
      refuse("the killswitch ends minting for ever and removes every owner power over the token. " +
        "Nothing can undo it. Run again with --confirm if that is what you want.");
    }
    const { publicClient, oro, caller } = await loadDeployedContracts(hre);
    requireOwner("Oro", await oro.read.owner(), caller);
    const hash = await oro.write.killswitch();
    await report(publicClient, hash, `killswitch pulled on Oro ${oro.address}: minting is over, owner is now the zero address`);
  });

/** World's cut-off: from 1 April 2027 World App makes no World ID 3.0 proof for anyone. */
const WORLD_ID_3_CUTOFF = Date.UTC(2027, 3, 1) / 1000;

task("close-world-id-3", "IRREVERSIBLY ends minting with World ID 3.0 proofs and the move to 4.0 (the owner only)")
  .addFlag("confirm", "required: confirms you understand this cannot be undone")
  .addFlag("beforeCutoff", "close before World's cut-off of 2027-04-01 (a rehearsal on the local chain)")
  .setAction(async ({ confirm, beforeCutoff }: { confirm: boolean; beforeCutoff: boolean }, hre) => {
    if (!confirm) {
      refuse("closing World ID 3.0 ends 3.0 mints and the move for ever; humans who never moved enrol anew. " +
        "Run again with --confirm if that is what you want.");
    }
    const { publicClient, oro, caller } = await loadDeployedContracts(hre);
    requireOwner("Oro", await oro.read.owner(), caller);
    const [closed] = await oro.read.worldIdStatus();
    if (closed) refuse(`World ID 3.0 is already closed on Oro ${oro.address}`);
    const now = Number((await publicClient.getBlock()).timestamp);
    if (now < WORLD_ID_3_CUTOFF && !beforeCutoff) {
      refuse(`the chain's time ${new Date(now * 1000).toISOString()} is before World's cut-off 2027-04-01: ` +
        "humans can still make 3.0 proofs; add --before-cutoff to close anyway");
    }
    const hash = await oro.write.closeWorldId3();
    await report(publicClient, hash, `World ID 3.0 closed on Oro ${oro.address}: every human now enrols with World ID 4.0`);
  });

task("set-world-id-verifier", "Points World ID 4.0 verification at another verifier (the owner only)")
  .addOptionalParam("address", "required: the verifier (World's proxy, or an adapter to its next interface)", undefined, types.string)
  .setAction(async ({ address }: { address?: string }, hre) => {
    const verifier = required("address", address, "0x00000000009E00F9FE82CfeeBB4556686da094d7");
    if (!isAddress(verifier)) refuse(`"${verifier}" is not an address`);
    const { publicClient, oro, caller } = await loadDeployedContracts(hre);
    requireOwner("Oro", await oro.read.owner(), caller);
    const code = await publicClient.getCode({ address: verifier });
    if (!code || code === "0x") refuse(`${getAddress(verifier)} has no code on this chain: a call to it would accept every proof`);
    const [, oldVerifier] = await oro.read.worldIdStatus();
    const hash = await oro.write.updateWorldIdVerifier([getAddress(verifier)]);
    await report(publicClient, hash, `World ID verifier: ${oldVerifier} -> ${getAddress(verifier)}`);
  });

task("set-world-id-4-settings", "Sets the 4.0 rp id, enrolment action and genesis cut-off, before the first enrolment (the owner only)")
  .addOptionalParam("rpId", "required: the relying party's id, rp_ + 16 hex digits", undefined, types.string)
  .addOptionalParam("enrolmentAction", "the enrolment action", "oro-enrolment", types.string)
  .addOptionalParam("genesisCutoff", "unix seconds: while 3.0 is open, enrolment needs a credential issued since", "1780272000", types.string)
  .setAction(async ({ rpId: given, enrolmentAction, genesisCutoff }: { rpId?: string; enrolmentAction: string; genesisCutoff: string }, hre) => {
    const rpId = parsed(() => rpIdOf(required("rp-id", given, "rp_0123456789abcdef")));
    if (enrolmentAction.trim() === "") refuse("the enrolment action must not be empty");
    if (!/^\d+$/.test(genesisCutoff)) refuse(`--genesis-cutoff must be unix seconds, not "${genesisCutoff}"`);
    const { publicClient, oro, caller } = await loadDeployedContracts(hre);
    requireOwner("Oro", await oro.read.owner(), caller);
    const [, , , , , locked] = await oro.read.worldIdStatus();
    if (locked) refuse("a human has enrolled: the rp id, enrolment action and cut-off are fixed (new ones would give every enrolled human a second identity)");
    const hash = await oro.write.setWorldId4Settings([rpId, enrolmentAction, BigInt(genesisCutoff)]);
    await report(publicClient, hash, `World ID 4.0: rp ${given ?? ""}, enrolment action "${enrolmentAction}", genesis cut-off ${new Date(Number(genesisCutoff) * 1000).toISOString()}`);
  });

task("set-claim-signer", "Rotates the key whose referral vouchers the claim contract pays (the owner only)")
  .addOptionalParam("signer", "required: the new signer address", undefined, types.string)
  .setAction(async ({ signer: given }: { signer?: string }, hre) => {
    const signer = required("signer", given, "0x…");
    if (!isAddress(signer)) refuse(`"${signer}" is not an address`);
    const { publicClient, claims, caller } = await loadDeployedContracts(hre);
    requireOwner("ReferralClaim", await claims.read.owner(), caller);
    const oldSigner = await claims.read.signer();
    const hash = await claims.write.setSigner([getAddress(signer)]);
    await report(publicClient, hash, `claim signer: ${oldSigner} -> ${getAddress(signer)}`);
  });

task("fund-claims", "Sends ORO from the owner to the referral claim contract")
  .addOptionalParam("amount", "required: ORO to send, e.g. 100", undefined, types.string)
  .setAction(async ({ amount }: { amount?: string }, hre) => {
    const value = parsed(() => parseOro(required("amount", amount, "100")));
    const { publicClient, oro, claims, caller } = await loadDeployedContracts(hre);
    requireOwner("ReferralClaim", await claims.read.owner(), caller);
    const balance = await oro.read.balanceOf([caller]);
    if (balance < value) refuse(`${caller} holds ${formatEther(balance)} ORO, less than the ${formatEther(value)} ORO to send`);
    const before = await oro.read.balanceOf([claims.address]);
    const hash = await oro.write.transfer([claims.address, value]);
    await report(publicClient, hash, `ReferralClaim balance: ${formatEther(before)} ORO -> ${formatEther(before + value)} ORO`);
  });

task("pause-claims", "Pauses referral voucher claims (the owner only)").setAction(async (_args, hre) => {
  const { publicClient, claims, caller } = await loadDeployedContracts(hre);
  requireOwner("ReferralClaim", await claims.read.owner(), caller);
  if (await claims.read.paused()) refuse("claims are already paused");
  await report(publicClient, await claims.write.pause(), "ReferralClaim: running -> paused");
});

task("unpause-claims", "Resumes referral voucher claims (the owner only)").setAction(async (_args, hre) => {
  const { publicClient, claims, caller } = await loadDeployedContracts(hre);
  requireOwner("ReferralClaim", await claims.read.owner(), caller);
  if (!(await claims.read.paused())) refuse("claims are not paused");
  await report(publicClient, await claims.write.unpause(), "ReferralClaim: paused -> running");
});

task("status", "Prints every ORO setting, balance and address on this network").setAction(async (_args, hre) => {
  const { oro, claims, chainId, deployment, caller } = await loadDeployedContracts(hre);
  const [owner, amount, wait, killed, supply, extNull, claimsOwner, signer, paused, claimsBalance, callerBalance] =
    await Promise.all([
      oro.read.owner(), oro.read.amountPerMint(), oro.read.waitBetweenMints(), oro.read.killed(), oro.read.totalSupply(),
      oro.read.externalNullifierHash(), claims.read.owner(), claims.read.signer(), claims.read.paused(),
      oro.read.balanceOf([claims.address]), oro.read.balanceOf([caller]),
    ]);
  const [worldId3Closed, verifier, rpId, , genesisCutoff, worldId4Locked] = await oro.read.worldIdStatus();
  const lines: Array<[string, string]> = [
    ["network", `${hre.network.name} (chain ${chainId})`],
    ["World ID router", deployment.contracts.WorldIdRouter.address],
    ["World ID 4.0 verifier", verifier],
    ["World ID 4.0", `rp ${rpId.toString(16).padStart(16, "0")}, enrolment "${deployment.worldId.enrolmentAction}", cut-off ${new Date(Number(genesisCutoff) * 1000).toISOString()}${worldId4Locked ? " (fixed: humans enrolled)" : ""}`],
    ["World ID 3.0", worldId3Closed ? "CLOSED: every human enrols with 4.0" : "open (3.0 mints and the move)"],
    ["World ID app / action", `${deployment.worldId.appId} / ${deployment.worldId.action}`],
    ["Oro", `${oro.address} (block ${deployment.contracts.Oro.blockNumber})`],
    ["  owner", owner],
    ["  amountPerMint", `${formatEther(amount)} ORO`],
    ["  waitBetweenMints", formatDuration(wait)],
    ["  externalNullifierHash", extNull.toString()],
    ["  killswitch", killed ? "PULLED: minting is over" : "not pulled"],
    ["  totalSupply", `${formatEther(supply)} ORO`],
    ["ReferralClaim", `${claims.address} (block ${deployment.contracts.ReferralClaim.blockNumber})`],
    ["  owner", claimsOwner],
    ["  signer", signer],
    ["  claims", paused ? "paused" : "running"],
    ["  balance", `${formatEther(claimsBalance)} ORO`],
  ];
  const faucet = deployment.contracts.TestModeFaucet;
  if (faucet) lines.push(["TestModeFaucet", `${faucet.address} (balance ${formatEther(await oro.read.balanceOf([faucet.address]))} ORO)`]);
  lines.push(["your account", `${getAddress(caller)} (${formatEther(callerBalance)} ORO)`]);
  const width = Math.max(...lines.map(([label]) => label.length)) + 2;
  for (const [label, value] of lines) console.log(`${label.padEnd(width)}${value}`);
});
