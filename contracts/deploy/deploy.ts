import type { HardhatRuntimeEnvironment } from "hardhat/types";
import { formatEther, getAddress, type Address, type Hash } from "viem";
import { buildDevProof, DEV_PROFILE, devNullifierHash, rpIdOf } from "@oro/clients";
import { WORLD_ID_VERIFIER_VERSIONS, env } from "../env";
import { DEV_ACCOUNTS, isDevelopmentAccount } from "../lib/dev-accounts";
import { refuse } from "../lib/refusal";
import { inspectWorldIdVerifier } from "../lib/world-id-verifier";
import { reachable } from "../lib/network";
import {
  DEVELOPMENT_CHAIN_ID,
  WORLD_CHAIN_ID,
  WORLD_CHAIN_WORLD_ID_ROUTER,
  WORLD_CHAIN_WORLD_ID_VERIFIER,
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
  const publicClient = await reachable(hre, () => hre.viem.getPublicClient());
  const [deployer] = await hre.viem.getWalletClients();
  if (!deployer) refuse(`network "${hre.network.name}" has no account to deploy from: set DEPLOYER_PRIVATE_KEY`);
  const chainId = await reachable(hre, () => publicClient.getChainId());
  const isDevelopment = chainId === DEVELOPMENT_CHAIN_ID;
  const log: string[] = [];

  const existing = readDeployment(chainId);
  if (existing && (await allHaveCode(existing))) {
    log.push(`chain ${chainId}: every contract in deployments/${chainId}.json is already deployed, nothing sent`);
    return { deployment: existing, deployedNow: false, file: deploymentPath(chainId), log };
  }

  const settings = resolveSettings(chainId, isDevelopment);
  const owner = deployer.account.address;
  if (!isDevelopment) {
    if (isDevelopmentAccount(owner)) {
      refuse(`refusing to deploy to chain ${chainId} from ${owner}: DEPLOYER_PRIVATE_KEY is one of Hardhat's public development keys`);
    }
    const routerCode = await publicClient.getCode({ address: settings.worldIdRouter });
    if (!routerCode || routerCode === "0x") {
      refuse(`refusing to deploy to chain ${chainId}: WORLD_ID_ROUTER_ADDRESS ${settings.worldIdRouter} has no code there`);
    }
    const verifierCode = await publicClient.getCode({ address: settings.worldIdVerifier });
    if (!verifierCode || verifierCode === "0x") {
      refuse(`refusing to deploy to chain ${chainId}: WORLD_ID_VERIFIER_ADDRESS ${settings.worldIdVerifier} has no code there`);
    }
  }

  async function created(hash: Hash): Promise<number> {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    return Number(receipt.blockNumber);
  }

  let router: DeployedContract;
  let verifier: DeployedContract;
  if (isDevelopment) {
    const mock = await hre.viem.sendDeploymentTransaction("MockWorldIdRouter");
    router = { address: mock.contract.address, blockNumber: await created(mock.deploymentTransaction.hash) };
    log.push(`MockWorldIdRouter ${mock.contract.address}`);
    const version = env.devWorldIdVerifierVersion;
    const mockVerifier = await hre.viem.sendDeploymentTransaction("MockWorldIdVerifier", [
      WORLD_ID_VERIFIER_VERSIONS.indexOf(version), [rpIdOf(settings.rpId)],
    ]);
    verifier = { address: mockVerifier.contract.address, blockNumber: await created(mockVerifier.deploymentTransaction.hash) };
    log.push(`MockWorldIdVerifier ${mockVerifier.contract.address} (as World's ${version})`);
  } else {
    router = { address: settings.worldIdRouter, blockNumber: 0 };
    log.push(`World ID router (external) ${settings.worldIdRouter}`);
    verifier = { address: settings.worldIdVerifier, blockNumber: 0 };
    const found = await inspectWorldIdVerifier(publicClient, settings.worldIdVerifier);
    log.push(
      `World ID 4.0 verifier (external) ${settings.worldIdVerifier}: implementation ${found.implementation ?? "none (not an EIP-1967 proxy)"}, ` +
        `behaves as ${found.version === "unknown" ? "neither V1 nor V2 (read docs/world-id-4.md before going on)" : `World's ${found.version}`}`,
    );
  }

  const worldId4 = {
    verifier: verifier.address,
    rpId: rpIdOf(settings.rpId),
    enrolmentAction: env.enrolmentAction,
    genesisCutoff: env.genesisCutoff,
  };
  const oroDeployment = await hre.viem.sendDeploymentTransaction("Oro", [
    router.address, settings.appId, env.action, BigInt(chainId), env.amountPerMint, env.waitBetweenMints, owner, worldId4,
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
    worldId: {
      appId: settings.appId,
      action: env.action,
      rpId: settings.rpId,
      enrolmentAction: env.enrolmentAction,
      genesisCutoff: env.genesisCutoff.toString(),
    },
    contracts: {
      WorldIdRouter: router,
      WorldIdVerifier: verifier,
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
      if (entry.blockNumber === 0) continue; // external (World's router and verifier)
      const code = await publicClient.getCode({ address: entry.address });
      if (!code || code === "0x") return false;
    }
    return true;
  }
}

export interface ResolvedSettings {
  worldIdRouter: Address;
  worldIdVerifier: Address;
  rpId: string;
  appId: string;
  claimSigner: Address;
}

/**
 * The router, app id and signer to deploy with. Off the development chain every one must be configured, none
 * may be a development value (Hardhat's public accounts, the local app id), and World Chain gets World's own
 * router and a production (not staging) app.
 */
export function resolveSettings(chainId: number, isDevelopment: boolean): ResolvedSettings {
  if (isDevelopment) {
    return {
      worldIdRouter: "0x0000000000000000000000000000000000000000",
      worldIdVerifier: "0x0000000000000000000000000000000000000000",
      rpId: env.worldIdRpId ?? DEV_PROFILE.worldIdRpId,
      appId: env.appId ?? DEV_PROFILE.worldAppId,
      claimSigner: env.claimSigner ?? DEV_ACCOUNTS.claimSigner,
    };
  }
  const missing = [
    env.worldIdRouter ? undefined : "WORLD_ID_ROUTER_ADDRESS",
    env.worldIdVerifier ? undefined : "WORLD_ID_VERIFIER_ADDRESS",
    env.worldIdRpId ? undefined : "WORLD_ID_RP_ID",
    env.appId ? undefined : "WORLD_APP_ID",
    env.claimSigner ? undefined : "CLAIM_SIGNER_ADDRESS",
  ].filter((name): name is string => name !== undefined);
  if (missing.length > 0 || !env.worldIdRouter || !env.worldIdVerifier || !env.worldIdRpId || !env.appId || !env.claimSigner) {
    refuse(`refusing to deploy to chain ${chainId} without ${missing.join(", ")} (no development defaults off the local chain)`);
  }
  const settings = {
    worldIdRouter: getAddress(env.worldIdRouter),
    worldIdVerifier: getAddress(env.worldIdVerifier),
    rpId: env.worldIdRpId,
    appId: env.appId,
    claimSigner: getAddress(env.claimSigner),
  };
  try {
    rpIdOf(settings.rpId);
  } catch (error) {
    refuse(`refusing to deploy to chain ${chainId}: WORLD_ID_RP_ID ${(error as Error).message}`);
  }
  if (settings.rpId === DEV_PROFILE.worldIdRpId) refuse(`refusing to deploy to chain ${chainId}: WORLD_ID_RP_ID ${DEV_PROFILE.worldIdRpId} is the local development relying party`);
  if (isDevelopmentAccount(settings.claimSigner)) {
    refuse(`refusing to deploy to chain ${chainId}: CLAIM_SIGNER_ADDRESS ${settings.claimSigner} is one of Hardhat's public development accounts`);
  }
  if (settings.appId === DEV_PROFILE.worldAppId) refuse(`refusing to deploy to chain ${chainId}: WORLD_APP_ID ${DEV_PROFILE.worldAppId} is the local development app`);
  if (chainId === WORLD_CHAIN_ID) {
    if (settings.worldIdRouter !== WORLD_CHAIN_WORLD_ID_ROUTER) {
      refuse(`refusing to deploy to World Chain: WORLD_ID_ROUTER_ADDRESS must be World's router ${WORLD_CHAIN_WORLD_ID_ROUTER}, not ${settings.worldIdRouter}`);
    }
    if (settings.worldIdVerifier !== WORLD_CHAIN_WORLD_ID_VERIFIER) {
      refuse(`refusing to deploy to World Chain: WORLD_ID_VERIFIER_ADDRESS must be World's verifier ${WORLD_CHAIN_WORLD_ID_VERIFIER}, not ${settings.worldIdVerifier}`);
    }
    if (settings.appId.startsWith("app_staging_")) {
      refuse(`refusing to deploy to World Chain: ${settings.appId} is a staging app (its proofs come from the simulator); use the production app id`);
    }
  }
  return settings;
}
