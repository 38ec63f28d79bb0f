import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { formatEther, getAddress, type Address, type Hash } from "viem";
import { buildDevProof, devNullifierHash } from "@oro/clients";
import { DEV_ACCOUNTS, DEV_APP_ID, env } from "../env";
import {
  DEVELOPMENT_CHAIN_ID,
  deploymentPath,
  readDeployment,
  writeDeployment,
  type DeployedContract,
  type Deployment,
} from "./deployment";

export interface DeployResult {
  deployment: Deployment;
  /** False when everything was already deployed on this chain and nothing was sent. */
  deployedNow: boolean;
  file: string;
  log: string[];
}

/**
 * Deploys the ORO contracts to the network `hre` points at and records them in deployments/<chainId>.json.
 * Idempotent: when every recorded contract still has code on the chain, nothing is sent. On the
 * development chain (31337) it also deploys the mock World ID router and the test-mode faucet, and funds
 * the claim contract and faucet with ORO minted by development humans. Anywhere else it never deploys mocks
 * and requires the real router, app id and claim signer from the environment.
 */
export async function deployAll(hre: HardhatRuntimeEnvironment): Promise<DeployResult> {
  const publicClient = await hre.viem.getPublicClient();
  const [deployer] = await hre.viem.getWalletClients();
  if (!deployer) throw new Error(`network "${hre.network.name}" has no account to deploy from: set DEPLOYER_PRIVATE_KEY`);
  const chainId = await publicClient.getChainId();
  const isDevelopment = chainId === DEVELOPMENT_CHAIN_ID;
  const log: string[] = [];

  const existing = readDeployment(chainId);
  if (existing && (await allHaveCode(existing))) {
    log.push(`chain ${chainId}: every contract in deployments/${chainId}.json is already deployed, nothing sent`);
    return { deployment: existing, deployedNow: false, file: deploymentPath(chainId), log };
  }

  const settings = resolveSettings(chainId, isDevelopment);
  const owner = deployer.account.address;

  async function created(hash: Hash): Promise<number> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    return Number(receipt.blockNumber);
  }

  let router: DeployedContract;
  if (isDevelopment) {
    const mock = await hre.viem.sendDeploymentTransaction("MockWorldIdRouter");
    router = { address: mock.contract.address, blockNumber: await created(mock.deploymentTransaction.hash) };
    log.push(`MockWorldIdRouter ${mock.contract.address}`);
  } else {
    router = { address: settings.worldIdRouter, blockNumber: 0 };
    log.push(`World ID router (external) ${settings.worldIdRouter}`);
  }

  const oroDeployment = await hre.viem.sendDeploymentTransaction("Oro", [
    router.address, settings.appId, env.action, BigInt(chainId), env.amountPerMint, env.waitBetweenMints, owner,
  ]);
  const oro = oroDeployment.contract;
  const oroBlock = await created(oroDeployment.deploymentTransaction.hash);
  log.push(`Oro ${oro.address} (${formatEther(env.amountPerMint)} ORO per mint, ${env.waitBetweenMints} s between mints)`);
  const claimsDeployment = await hre.viem.sendDeploymentTransaction("ReferralClaim", [oro.address, settings.claimSigner, owner]);
  const claims = claimsDeployment.contract;
  const claimsBlock = await created(claimsDeployment.deploymentTransaction.hash);
  log.push(`ReferralClaim ${claims.address} (signer ${settings.claimSigner})`);

  const deployment: Deployment = {
    chainId,
    worldId: { appId: settings.appId, action: env.action },
    contracts: {
      WorldIdRouter: router,
      Oro: { address: oro.address, blockNumber: oroBlock },
      ReferralClaim: { address: claims.address, blockNumber: claimsBlock },
    },
  };

  if (isDevelopment) {
    const faucetDeployment = await hre.viem.sendDeploymentTransaction("TestModeFaucet", [oro.address, env.faucetAmountPerClaim]);
    const faucet = faucetDeployment.contract;
    deployment.contracts.TestModeFaucet = { address: faucet.address, blockNumber: await created(faucetDeployment.deploymentTransaction.hash) };
    log.push(`TestModeFaucet ${faucet.address} (${formatEther(env.faucetAmountPerClaim)} ORO per claim)`);

    // ORO only comes into being through verified mints, so development humans mint the funding.
    for (let i = 0; i < env.devFundingMints; i++) {
      const { root, nullifierHash, proof } = buildDevProof({
        receiver: owner, nullifierHash: devNullifierHash(`treasury-${i}`), appId: settings.appId, action: env.action,
      });
      await created(await oro.write.mint([root, nullifierHash, proof, owner]));
    }
    const minted = await oro.read.balanceOf([owner]);
    const toFaucet = minted / 4n;
    await created(await oro.write.transfer([claims.address, minted - toFaucet]));
    await created(await oro.write.transfer([faucet.address, toFaucet]));
    log.push(`funded ReferralClaim with ${formatEther(minted - toFaucet)} ORO and the faucet with ${formatEther(toFaucet)} ORO`);
  }

  const file = writeDeployment(deployment);
  log.push(`wrote ${file}`);
  return { deployment, deployedNow: true, file, log };

  async function allHaveCode(deployed: Deployment): Promise<boolean> {
    for (const entry of Object.values(deployed.contracts)) {
      if (entry.blockNumber === 0) continue; // external (World's router)
      const code = await publicClient.getCode({ address: entry.address });
      if (!code || code === "0x") return false;
    }
    return true;
  }
}

export interface ResolvedSettings {
  worldIdRouter: Address;
  appId: string;
  claimSigner: Address;
}

/** The router, app id and signer to deploy with; off the development chain every one must be configured. */
export function resolveSettings(chainId: number, isDevelopment: boolean): ResolvedSettings {
  if (isDevelopment) {
    return {
      worldIdRouter: "0x0000000000000000000000000000000000000000",
      appId: env.appId ?? DEV_APP_ID,
      claimSigner: env.claimSigner ?? DEV_ACCOUNTS.claimSigner,
    };
  }
  const missing = [
    env.worldIdRouter ? undefined : "WORLD_ID_ROUTER_ADDRESS",
    env.appId ? undefined : "WORLD_APP_ID",
    env.claimSigner ? undefined : "CLAIM_SIGNER_ADDRESS",
  ].filter((name): name is string => name !== undefined);
  if (missing.length > 0 || !env.worldIdRouter || !env.appId || !env.claimSigner) {
    throw new Error(`refusing to deploy to chain ${chainId} without ${missing.join(", ")} (no development defaults off the local chain)`);
  }
  return { worldIdRouter: getAddress(env.worldIdRouter), appId: env.appId, claimSigner: getAddress(env.claimSigner) };
}
