import { task, types } from "hardhat/config";
import { formatEther, getAddress, isAddress } from "viem";
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

task("set-external-nullifier", "Points minting at a World ID app id and action (the owner only)")
  .addOptionalParam("appId", "required: World developer portal app id, e.g. app_0123...", undefined, types.string)
  .addOptionalParam("action", "World ID action", "claim-tokens-action", types.string)
  .setAction(async ({ appId: given, action }: { appId?: string; action: string }, hre) => {
    const appId = required("app-id", given, "app_0123456789abcdef");
    if (!/^app_[A-Za-z0-9_]+$/.test(appId)) refuse(`"${appId}" is not a World app id (app_ followed by letters, digits or _)`);
    if (action.trim() === "") refuse("the action must not be empty");
    const { publicClient, oro, caller } = await loadDeployedContracts(hre);
    requireOwner("Oro", await oro.read.owner(), caller);
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
  const lines: Array<[string, string]> = [
    ["network", `${hre.network.name} (chain ${chainId})`],
    ["World ID router", deployment.contracts.WorldIdRouter.address],
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
