import { createContext, useContext, type ReactNode } from "react";
import type { Address } from "viem";
import type { OroApi } from "./api";
import type { ClaimableSignature } from "./api";
import type { MintData, MintRecord } from "./chain";
import type { ClaimRefusal } from "./claim-refusal";
import type { VoucherPreview } from "./referral-claim";
import type { Monitoring } from "./monitoring";
import type { AppPermissions } from "./world-app/get-permissions";
import type { NotificationPermissionOutcome } from "./world-app/request-permission";
import type { ContractCall, SentTransaction } from "./world-app/send-transaction";
import type { HapticMoment } from "./world-app/haptics";
import type { ShareContent } from "./world-app/share";
import type { SignedMessage } from "./world-app/sign-message";
import type { SessionProof } from "@oro/clients";
import type {
  KeepPending,
  PendingEnrolment,
  SignWorldIdRequest,
  VerificationResult,
  VerifyContext,
  WorldId3Verification,
  WorldIdSettings,
} from "./world-app/verify";
import type { WalletAuthRequest, WalletAuthSignature } from "./world-app/wallet-auth";

/** Chain reads and the mint call, through viem with the generated ABI and addresses. */
export interface ChainService {
  tokenAddress(): Address;
  readMintData(record: MintRecord): Promise<MintData>;
  readWorldIdSettings(): Promise<WorldIdSettings>;
  readWaitBetweenMints(): Promise<bigint>;
  readAmountPerMint(): Promise<bigint>;
  readOroBalance(owner: Address): Promise<bigint>;
  readTotalSupply(): Promise<bigint>;
  buildMintCall(verification: WorldId3Verification, receiver: Address): ContractCall;
  /** The World ID 4.0 calls (their module loads on first use): an enrolment, a move, a claim with a session proof. */
  buildEnrolmentCall(pending: PendingEnrolment, receiver: Address, session: SessionProof): Promise<ContractCall>;
  buildMoveCall(pending: PendingEnrolment, receiver: Address, session: SessionProof): Promise<ContractCall>;
  buildSessionClaimCall(receiver: Address, session: SessionProof): Promise<ContractCall>;
  /** Why the contract refuses `call` from `from` now, or null when it would not (its module loads on a failure). */
  explainRefusal(call: ContractCall, from: Address): Promise<ClaimRefusal | null>;
  /** `ReferralClaim.claim(voucher, signature)` for a voucher the API signed (its module loads on first use). */
  buildVoucherClaimCall(claimable: ClaimableSignature): Promise<ContractCall>;
  previewVoucherClaim(claimable: ClaimableSignature): Promise<VoucherPreview>;
}

/** The wallet commands of src/lib/world-app, one per command. */
export interface WalletService {
  isInWorldApp(): boolean;
  /** Notifications can be asked for here (World App, or the development wallet). */
  notificationsAvailable(): boolean;
  walletAuth(request: WalletAuthRequest): Promise<WalletAuthSignature>;
  sendTransaction(call: ContractCall): Promise<SentTransaction>;
  signMessage(message: string): Promise<SignedMessage>;
  verifyHuman(signal: Address, sign: SignWorldIdRequest, context: VerifyContext): Promise<VerificationResult>;
  /** World App here can make World ID 4.0 proofs (so a 3.0 human can move). */
  worldId4Available(): boolean;
  /** The prompts of a 3.0 human's move to a 4.0 session, from where `pending` got to; kept (`keep`) as they come. */
  moveProofs(receiver: Address, sign: SignWorldIdRequest, chainNow: number, keep: KeepPending, pending: PendingEnrolment | null): Promise<PendingEnrolment>;
  /** A fresh World ID 4.0 session proof for one claim to `receiver`, its expiry floor `expiresAtMin`. */
  proveClaim(idkitSessionId: `session_${string}`, receiver: Address, expiresAtMin: bigint, sign: SignWorldIdRequest): Promise<SessionProof>;
  /** The session proof that completes a pending enrolment (or, `asMove`, a move). */
  proveEnrolment(pending: PendingEnrolment, receiver: Address, asMove: boolean, chainNow: number, sign: SignWorldIdRequest): Promise<SessionProof>;
  share(content: ShareContent): Promise<void>;
  requestNotificationPermission(): Promise<NotificationPermissionOutcome>;
  getPermissions(): Promise<AppPermissions>;
  getUsername(address: Address): Promise<string | null>;
  openUrl(url: string): void;
  /** A haptic touch at a moment a person feels (never throws, never waits). */
  haptic(moment: HapticMoment): void;
}

export interface Services {
  api: OroApi;
  chain: ChainService;
  wallet: WalletService;
  monitoring: Monitoring;
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices needs a ServicesProvider");
  return services;
}
