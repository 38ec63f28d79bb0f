import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { getAddress, type Address, type Hash } from "viem";
import { readDeployment, type Deployment } from "../deploy/deployment";
import { reachable } from "../lib/network";
import { refuse } from "../lib/refusal";

export { refuse };

/** The deployed contracts on the network the task runs against, after checking it is the right network. */
export async function loadDeployedContracts(hre: HardhatRuntimeEnvironment) {
  const publicClient = await reachable(hre, () => hre.viem.getPublicClient());
  const chainId = await reachable(hre, () => publicClient.getChainId());
  const configuredChainId = hre.network.config.chainId;
  if (configuredChainId !== undefined && configuredChainId !== chainId) {
    refuse(`wrong network: "${hre.network.name}" should be chain ${configuredChainId} but its RPC answers chain ${chainId}`);
  }
  const deployment: Deployment | undefined = readDeployment(chainId);
  if (!deployment) {
    refuse(`wrong network: there is no ORO deployment for chain ${chainId} (network "${hre.network.name}"). ` +
      `Pick the network with --network, or deploy first (pnpm --filter @oro/contracts run deploy --network ${hre.network.name}).`);
  }
  for (const [name, entry] of Object.entries(deployment.contracts)) {
    if (entry.blockNumber === 0) continue;
    const code = await publicClient.getCode({ address: entry.address });
    if (!code || code === "0x") {
      refuse(`wrong network: ${name} is recorded at ${entry.address} on chain ${chainId} but has no code there ` +
        `(was the local chain restarted? start it again with pnpm start)`);
    }
  }
  const oro = await hre.viem.getContractAt("Oro", deployment.contracts.Oro.address);
  const claims = await hre.viem.getContractAt("ReferralClaim", deployment.contracts.ReferralClaim.address);
  const expectedChainId = await oro.read.expectedChainId();
  if (expectedChainId !== BigInt(chainId)) {
    refuse(`wrong network: this ORO token only mints on chain ${expectedChainId}, but the RPC is chain ${chainId}`);
  }
  const [wallet] = await hre.viem.getWalletClients();
  if (!wallet) refuse(`network "${hre.network.name}" has no account: set DEPLOYER_PRIVATE_KEY to the owner's key`);
  return { publicClient, chainId, deployment, oro, claims, wallet, caller: wallet.account.address };
}

/** Refuses unless `caller` owns the contract; names the owner so the operator knows which key to use. */
export function requireOwner(contractName: string, owner: Address, caller: Address): void {
  if (owner === "0x0000000000000000000000000000000000000000") {
    refuse(`${contractName} has no owner any more (the killswitch was pulled or ownership renounced): nothing can be changed`);
  }
  if (getAddress(owner) !== getAddress(caller)) {
    refuse(`${getAddress(caller)} is not the owner of ${contractName}; the owner is ${getAddress(owner)}. Use the owner's key (DEPLOYER_PRIVATE_KEY).`);
  }
}

/** Waits for the transaction, fails loudly if it reverted, and prints the change with its hash. */
export async function report(
  publicClient: { waitForTransactionReceipt(args: { hash: Hash }): Promise<{ status: "success" | "reverted"; blockNumber: bigint }> },
  hash: Hash,
  change: string,
): Promise<void> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") refuse(`transaction ${hash} reverted: ${change} did not happen`);
  console.log(`${change}\n  tx ${hash} (block ${receipt.blockNumber})`);
}
