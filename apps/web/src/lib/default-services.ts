import { env, logMonitoringEvents } from "../env";
import { createOroApi } from "./api";
import * as chain from "./chain";
import { createMonitoring } from "./monitoring";
import type { Services } from "./services";
import { readStored } from "./storage";
import { devFallbackAvailable } from "./world-app/fallback";
import { getPermissions } from "./world-app/get-permissions";
import { hapticFeedback } from "./world-app/haptics";
import { isInWorldApp, worldId4Available } from "./world-app/install";
import { requestNotificationPermission } from "./world-app/request-permission";
import { sendTransaction } from "./world-app/send-transaction";
import { share } from "./world-app/share";
import { signMessage } from "./world-app/sign-message";
import { getUsername } from "./world-app/username";
import { walletAuth } from "./world-app/wallet-auth";

// World ID 4.0's reads and calls, and the World App prompts (IDKit): loaded on use, not with the first screen.
const worldIdCalls = () => import("./world-id-calls");
const worldIdPrompts = () => import("./world-app/verify");

/** The real services: the API client, the chain through viem, and World App (or the development wallet). */
export function createDefaultServices(): Services {
  return {
    api: createOroApi({ baseUrl: env.apiBaseUrl, token: () => readStored("session")?.token ?? null }),
    chain: {
      tokenAddress: chain.oroAddress,
      readMintData: async (record) => (record.version === "3.0" ? chain.readMintData3(record.nullifierHash) : (await worldIdCalls()).readSessionMintData(record.sessionId)),
      readWorldIdSettings: async () => (await worldIdCalls()).readWorldIdSettings(),
      readWaitBetweenMints: chain.readWaitBetweenMints,
      readAmountPerMint: chain.readAmountPerMint,
      readOroBalance: chain.readOroBalance,
      readTotalSupply: chain.readTotalSupply,
      buildMintCall: chain.buildMintCall,
      buildEnrolmentCall: async (...args) => (await worldIdCalls()).buildEnrolmentCall(...args),
      buildMoveCall: async (...args) => (await worldIdCalls()).buildMoveCall(...args),
      buildSessionClaimCall: async (...args) => (await worldIdCalls()).buildSessionClaimCall(...args),
      explainRefusal: async (...args) => (await import("./claim-refusal")).explainRefusal(...args),
      // The ReferralClaim ABI loads with the share screen, not with the first load.
      buildVoucherClaimCall: async (claimable) => (await import("./referral-claim")).buildVoucherClaimCall(claimable),
      previewVoucherClaim: async (claimable) => (await import("./referral-claim")).previewVoucherClaim(claimable),
    },
    wallet: {
      isInWorldApp,
      notificationsAvailable: () => isInWorldApp() || devFallbackAvailable(),
      walletAuth,
      sendTransaction,
      signMessage,
      // World ID (its IDKit calls and the 4.0 proof parsing) loads when the user verifies or claims.
      verifyHuman: async (...args) => (await worldIdPrompts()).verifyHuman(...args),
      proveClaim: async (...args) => (await worldIdPrompts()).proveClaim(...args),
      proveEnrolment: async (...args) => (await worldIdPrompts()).proveEnrolment(...args),
      moveProofs: async (...args) => (await worldIdPrompts()).moveProofs(...args),
      worldId4Available: () => isInWorldApp() && worldId4Available(),
      share,
      requestNotificationPermission,
      getPermissions,
      getUsername,
      haptic: hapticFeedback,
      openUrl: (url) => {
        window.open(url, "_blank", "noopener,noreferrer");
      },
    },
    monitoring: createMonitoring(logMonitoringEvents),
  };
}
