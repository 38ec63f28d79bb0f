import { devSessionProof, enrolmentSessionSignalOf, moveSignalOf, oroWorldId4CallsAbi, referralClaimAbi, sessionIdOf, sessionSeedOf } from "@oro/clients";
import { decodeFunctionData } from "viem";
import type { WalletService } from "../src/lib/services";
import { WorldAppError } from "../src/lib/world-app/errors";
import type { VerificationResult } from "../src/lib/world-app/verify";
import type { FakeChainState } from "./fake-chain";
import { DEV_SETTINGS, devPendingEnrolment, devVerification, nowSeconds, REFERRAL_CLAIM, THIRTY_DAYS, USER, type FakeOptions, type RecordCall } from "./fake-values";

/** World App's wallet as the app uses it: its transactions land on the fakes' chain (`state`); `opened` the URLs it opened. */
export function fakeWallet(options: FakeOptions, state: FakeChainState, record: RecordCall, opened: string[]): WalletService {
  let sessionRandom = 10n;
  let permissionAsked = false;
  return {
    isInWorldApp: () => true,
    notificationsAvailable: () => options.notificationsAvailable ?? true,
    walletAuth: (request) => {
      record("walletAuth", request);
      return Promise.resolve({ address: USER, message: `sign in ${request.nonce}`, signature: "0x1234" });
    },
    sendTransaction: (call) => {
      record("sendTransaction", call);
      if (options.sendTransactionError) return Promise.reject(options.sendTransactionError);
      if (call.to === REFERRAL_CLAIM) {
        const { args } = decodeFunctionData({ abi: referralClaimAbi, data: call.data });
        const [voucher] = args as unknown as [{ nonce: bigint }];
        state.pendingVouchers.set(voucher.nonce.toString(), options.voucherConfirmsAfterReads ?? 1);
        return Promise.resolve({ id: options.voucherClaimWithoutId ? ("" as `0x${string}`) : ("0xc1a1" as const), via: "world-app" as const });
      }
      const worldId4Call = (() => {
        try {
          return decodeFunctionData({ abi: oroWorldId4CallsAbi, data: call.data });
        } catch {
          return null;
        }
      })();
      // The contract's checks the app relies on: one enrolment per session, a claim's expiry floor above the last.
      const session = worldId4Call?.functionName === "enrolInWorldId4Session" ? worldId4Call.args[2] : worldId4Call?.functionName === "moveToWorldId4Session" ? worldId4Call.args[6] : worldId4Call?.functionName === "claimWithSession" ? worldId4Call.args[1] : null;
      if (session && worldId4Call?.functionName !== "claimWithSession" && state.sessionExpiry.has(session.sessionId)) return Promise.reject(new WorldAppError("sendTransaction", "simulation_failed"));
      if (session && worldId4Call?.functionName === "claimWithSession" && !(session.expiresAtMin > (state.sessionExpiry.get(session.sessionId) ?? 2n ** 64n))) {
        return Promise.reject(new WorldAppError("sendTransaction", "simulation_failed"));
      }
      const landed = () => {
        if (session) state.sessionExpiry.set(session.sessionId, session.expiresAtMin);
        if (worldId4Call?.functionName === "moveToWorldId4Session") state.moved = true;
        else state.readsUntilConfirmed = options.mintConfirmsAfterReads ?? 1;
      };
      if (options.frontRun && session) {
        // A copy landed first; the wallet's own is then refused by World App's simulation.
        landed();
        return Promise.reject(new WorldAppError("sendTransaction", "simulation_failed"));
      }
      landed();
      return Promise.resolve({ id: worldId4Call?.functionName === "moveToWorldId4Session" ? "0xabd" : "0xabc", via: "world-app" as const });
    },
    // As the real wrapper (lib/world-app/verify.ts, tested with IDKit in test/verify.test.ts): what is known first;
    // then a 3.0 proof, or an enrolment whose uniqueness proof is kept before anything else; after
    // nullifier_replayed, what is known again.
    verifyHuman: async (signal, _sign, context): Promise<VerificationResult> => {
      record("verifyHuman", signal);
      const known = await context.known().catch(() => null);
      if (known) return known;
      record("worldAppPrompt", signal);
      if (options.verifyError) {
        const again = options.verifyError instanceof WorldAppError && options.verifyError.code === "nullifier_replayed" ? await context.known().catch(() => null) : null;
        if (again) return again;
        throw options.verifyError;
      }
      if (!options.worldId4) return devVerification();
      const now = nowSeconds();
      const pending = devPendingEnrolment(BigInt(options.credentialExpiresSoon ? now : now + THIRTY_DAYS));
      await context.keep(pending);
      return { version: "4.0", idkitSessionId: pending.idkitSessionId, pending };
    },
    worldId4Available: () => options.worldId4App ?? false,
    moveProofs: async (receiver, sign, chainNow, keep, pending) => {
      record("moveProofs", receiver, pending);
      let move = pending;
      if (!move) {
        await sign("session");
        await sign("enrolment");
        move = devPendingEnrolment(BigInt(chainNow + THIRTY_DAYS), "move");
        await keep(move);
      }
      if (move.worldId3) return move;
      await sign("claim");
      const worldId3 = devVerification();
      record("moveSignal", moveSignalOf(receiver, sessionIdOf(move.idkitSessionId)));
      const complete = { ...move, worldId3 };
      await keep(complete);
      return complete;
    },
    proveClaim: async (idkitSessionId, receiver, expiresAtMin, sign) => {
      record("proveClaim", idkitSessionId, expiresAtMin);
      await sign("session");
      sessionRandom += 1n;
      return devSessionProof(sessionIdOf(idkitSessionId), receiver, DEV_SETTINGS, expiresAtMin, sessionRandom);
    },
    proveEnrolment: async (pending, receiver, asMove, chainNow, sign) => {
      const movedFrom = asMove ? (pending.worldId3?.nullifierHash ?? 0n) : 0n;
      const signal = enrolmentSessionSignalOf(receiver, sessionSeedOf(pending.idkitSessionId), movedFrom, pending.uniqueness.nullifier);
      record("proveEnrolment", pending.idkitSessionId, { signal, genesisMin: pending.uniqueness.credentialGenesisIssuedAtMin, expiresAtMin: BigInt(chainNow) });
      await sign("session");
      sessionRandom += 1n;
      return devSessionProof(sessionIdOf(pending.idkitSessionId), receiver, DEV_SETTINGS, BigInt(chainNow), sessionRandom, pending.uniqueness.credentialGenesisIssuedAtMin, signal);
    },
    signMessage: (message) => {
      record("signMessage", message);
      return options.signMessageError ? Promise.reject(options.signMessageError) : Promise.resolve({ address: USER, signature: "0x5167" as const });
    },
    share: (content) => (record("share", content), Promise.resolve()),
    requestNotificationPermission: () => {
      record("requestNotificationPermission");
      if (permissionAsked) return Promise.resolve("already_requested" as const);
      permissionAsked = true;
      return Promise.resolve(options.permissionOutcome ?? "granted");
    },
    getPermissions: () => Promise.resolve({ notifications: false }),
    getUsername: () => Promise.resolve("alice"),
    openUrl: (url) => {
      opened.push(url);
    },
    haptic: (moment) => record("haptic", moment),
  };
}
