import { buildReferralMessage } from "@oro/clients";
import type { FastifyBaseLogger } from "fastify";
import { getAddress, isHex, type Address, type Hex } from "viem";
import type { PrismaClient, Referral, User } from "../../generated/prisma/client.js";
import type { AllowList } from "./allow-list.js";
import { isPersonalSignatureValid, type AuthService } from "../auth/index.js";
import type { ChainService } from "../chain/index.js";
import { ApiError, isUniqueViolation } from "../../lib/errors.js";
import { startDeadline } from "../../lib/deadline.js";
import { IndexerUnavailableError, type IndexerClient } from "../indexer/index.js";
import type { ReferralActivation } from "./activation.js";
import type { ReferralCodes } from "./codes.js";
import { firstMintFromIndexer, humanBehindWallet, humansOfWallet, type ListedMint } from "./humans.js";
import { sameHumanOnBothSides } from "./rules.js";

export interface AcceptInput {
  referralCode: string;
  signature: string;
  /** The nonce the message was built with; the newest outstanding one when omitted. */
  nonce?: string | undefined;
}

/** Why a wallet may or may not accept an invite now (GET /api/referrals/eligibility). */
export const ELIGIBILITY_REASON = {
  neverClaimed: "NEVER_CLAIMED",
  allowListed: "ALLOW_LISTED",
  alreadyClaimed: "ALREADY_CLAIMED",
  alreadyReferred: "ALREADY_REFERRED",
} as const;
export type EligibilityReason = (typeof ELIGIBILITY_REASON)[keyof typeof ELIGIBILITY_REASON];

export interface Eligibility {
  eligible: boolean;
  reason: EligibilityReason;
  referralApplied: boolean;
  referrerUsername: string | null;
}

export interface AcceptanceOptions {
  prisma: PrismaClient;
  chain: ChainService;
  indexer: IndexerClient;
  auth: AuthService;
  codes: ReferralCodes;
  activation: ReferralActivation;
  allowList: Pick<AllowList, "exempts">;
  /** The wallet's first mint ever (undefined before any) through the streak cache (stale while the indexer is down); 503 ApiError without one. */
  cachedFirstClaim: (address: Address) => Promise<ListedMint | undefined>;
  log: FastifyBaseLogger;
  forget: (...addresses: string[]) => void;
}

export type ReferralAcceptance = ReturnType<typeof createReferralAcceptance>;

const unavailable = () => new ApiError(503, "ELIGIBILITY_UNAVAILABLE", "cannot check eligibility right now: try again shortly");

/**
 * Accepting an invite: the referee signs the invite message; the referral is recorded pending. When the
 * referee's human is already known (their wallet has minted), the rules are applied at once; otherwise
 * they are applied at the first mint (activation.ts).
 */
export function createReferralAcceptance(options: AcceptanceOptions) {
  const { prisma, chain, indexer, codes, activation, allowList, log, forget } = options;

  /**
   * The referee's standing: eligible while no human is known to have minted to the wallet, or when the human
   * behind it (humanBehindWallet: remembered, else its first mint's, asked of the indexer itself, no cache)
   * is allow-listed; and that human when known.
   */
  async function standingOf(referee: User): Promise<{ eligible: boolean; human: Hex | null }> {
    let human: Hex | null;
    try {
      human = await humanBehindWallet(prisma, referee, () => firstMintFromIndexer(indexer, referee));
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      // Nobody is remembered behind the wallet (else the indexer is not asked): only an address-only entry of it decides.
      if (await allowList.exempts(referee.address, null)) return { eligible: true, human: null };
      log.warn({ err: error }, "eligibility check failed: indexer unavailable");
      throw unavailable();
    }
    return { eligible: human === null || (await allowList.exempts(referee.address, human)), human };
  }

  /** A known referee human: not the referrer's own, and not held by another referral. */
  async function refuseKnownHuman(referrer: User, refereeHuman: Hex) {
    const referrerHumans = await humansOfWallet(indexer, referrer).catch((error: unknown) => {
      if (error instanceof IndexerUnavailableError) throw unavailable();
      throw error;
    });
    if (sameHumanOnBothSides(referrerHumans.humans, new Set([refereeHuman]))) {
      throw new ApiError(400, "NO_SELF_REFERRAL", "you cannot refer yourself");
    }
    const taken = await prisma.referral.findFirst({ where: { refereeNullifierHash: refereeHuman, status: { not: "rejected" } } });
    if (taken) throw new ApiError(409, "REFERRAL_ALREADY_EXISTS", "you have already accepted an invite");
  }

  /**
   * The chain's clock now (the time its next block would get), or null when the chain does not answer in time.
   * Not the latest block's time: a mint in that block, made before this acceptance, would count as after it.
   */
  async function chainTimeNow(): Promise<Date | null> {
    try {
      return new Date((await startDeadline(2_000).run(() => chain.clockSeconds())) * 1000);
    } catch {
      return null;
    }
  }

  async function newestAcceptNonce(address: string): Promise<string | undefined> {
    const row = await prisma.authNonce.findFirst({
      where: { purpose: "referral", address: address.toLowerCase(), consumedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
    });
    return row?.nonce;
  }

  function issueAcceptNonce(user: User) {
    return options.auth.issueNonce("referral", getAddress(user.address));
  }

  async function accept(referee: User, input: AcceptInput) {
    if (input.signature === "") {
      throw new ApiError(400, "SIGNATURE_REQUIRED", "sign the invite message first: the signature is empty");
    }
    if (!isHex(input.signature)) throw new ApiError(400, "SIGNATURE_INVALID", "the signature is not hex");
    const referralCode = await codes.find(input.referralCode);
    if (!referralCode) throw new ApiError(404, "REFERRAL_CODE_NOT_FOUND", "the code you entered does not exist");
    const code = referralCode.code;
    const referrer = referralCode.user;
    if (referrer.id === referee.id) throw new ApiError(400, "NO_SELF_REFERRAL", "you cannot refer yourself");
    if (await prisma.referral.findUnique({ where: { refereeId: referee.id } })) {
      throw new ApiError(409, "REFERRAL_ALREADY_EXISTS", "you have already accepted an invite");
    }

    const nonce = input.nonce ?? (await newestAcceptNonce(referee.address));
    if (!nonce) throw new ApiError(400, "SIGNATURE_INVALID", "no invite nonce is outstanding: request one first");
    const message = buildReferralMessage({ referralCode: code, address: referee.address, nonce });
    const refereeAddress = getAddress(referee.address);
    if (!(await isPersonalSignatureValid(chain.publicClient, refereeAddress, message, input.signature))) {
      throw new ApiError(400, "SIGNATURE_INVALID", "the signature does not match the invite message for this code and nonce");
    }

    const standing = await standingOf(referee);
    if (!standing.eligible) {
      throw new ApiError(403, "NOT_ELIGIBLE", "invites can only be accepted before the first claim");
    }
    if (standing.human) await refuseKnownHuman(referrer, standing.human);

    if (!(await options.auth.consumeNonce(nonce, "referral", refereeAddress))) {
      throw await options.auth.describeUnusableNonce(nonce, "referral").then((reason) => new ApiError(400, "SIGNATURE_INVALID", reason.message));
    }
    const acceptedAtBlockTime = await chainTimeNow();
    let referral: Referral;
    try {
      // The unique indexes decide between concurrent accepts (one per wallet, one per known human), not the reads above.
      referral = await prisma.referral.create({
        data: { referrerId: referrer.id, refereeId: referee.id, referralCodeId: referralCode.id, refereeNullifierHash: standing.human, acceptedAtBlockTime },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(409, "REFERRAL_ALREADY_EXISTS", "you have already accepted an invite");
      throw error;
    }
    forget(referrer.address, referee.address);
    if (standing.human) {
      // An allow-listed referee who has minted before: decided at once (payable when the referrer is verified).
      referral = (await activation.activate(referral.id)).referral ?? referral;
    }
    return {
      referral: { id: referral.id, referralCode: code, status: referral.status, createdAt: referral.createdAt.toISOString() },
      referralUser: { userId: referrer.id, username: referrer.username },
    };
  }

  /**
   * Whether `user` may accept an invite now, per human where the human is known (humanBehindWallet, the same
   * human acceptance and activation judge): a referral of theirs (this wallet, or another wallet of the same
   * human) comes first, then the allow-list (the human's entry, or while the human is unknown an address-only
   * entry of this wallet), then whether the human has minted. The wallet's first mint is read through the
   * streak cache, so it answers while the indexer is down if anything is cached (or the human is remembered).
   */
  async function eligibility(user: User): Promise<Eligibility> {
    const own = await prisma.referral.findUnique({ where: { refereeId: user.id }, include: { referrer: true } });
    if (own) {
      return { eligible: false, reason: ELIGIBILITY_REASON.alreadyReferred, referralApplied: true, referrerUsername: own.referrer.username };
    }
    let human: Hex | null = null;
    let indexerDown = false;
    try {
      human = await humanBehindWallet(prisma, user, () => options.cachedFirstClaim(getAddress(user.address)));
    } catch (error) {
      if (!(error instanceof ApiError && error.statusCode === 503)) throw error;
      indexerDown = true;
    }
    const none = { referralApplied: false, referrerUsername: null };
    if (human) {
      const held = await prisma.referral.findFirst({ where: { refereeNullifierHash: human, status: { not: "rejected" } } });
      if (held) return { eligible: false, reason: ELIGIBILITY_REASON.alreadyReferred, ...none };
    }
    // Per human; an address-only entry of this wallet becomes the human's here when the human is known.
    const allowListed = await allowList.exempts(user.address, human);
    if (indexerDown && !allowListed) throw unavailable();
    if (allowListed) return { eligible: true, reason: ELIGIBILITY_REASON.allowListed, ...none };
    // A known human is one who has minted: that is how the API learns of a human.
    if (human) return { eligible: false, reason: ELIGIBILITY_REASON.alreadyClaimed, ...none };
    return { eligible: true, reason: ELIGIBILITY_REASON.neverClaimed, ...none };
  }

  return { accept, issueAcceptNonce, eligibility };
}
