import { buildReferralMessage, REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH } from "@oro/clients";
import type { FastifyBaseLogger } from "fastify";
import { getAddress, isHex, type Address, type Hex } from "viem";
import type {
  PaymentType,
  Prisma,
  PrismaClient,
  Referral,
  ReferralReward,
  RewardSide,
  User,
} from "../generated/prisma/client.js";
import type { AuthService } from "./auth.js";
import type { ChainService } from "./chain.js";
import { ApiError, isUniqueViolation } from "./errors.js";
import { INDEXER_MAX_LIMIT, IndexerUnavailableError, normaliseNullifierHash, type IndexerClient } from "./indexer.js";
import { randomString } from "./random.js";
import { isPersonalSignatureValid } from "./signatures.js";
import { TtlCache } from "./ttl-cache.js";
import { createSignedVoucher } from "./vouchers.js";

export interface RewardRule {
  amountWei: bigint;
  paymentType: PaymentType;
}

export interface ReferralServiceOptions {
  prisma: PrismaClient;
  chain: ChainService;
  indexer: IndexerClient;
  auth: AuthService;
  rewards: Record<RewardSide, RewardRule>;
  earningsCacheTtlMs: number;
  log: FastifyBaseLogger;
}

export interface ClaimableSignature {
  contractAddress: Address;
  message: { account: Address; amount: string; nonce: string };
  signature: Hex;
}

export interface ReferredUserEntry {
  userId: string;
  username: string | null;
  paymentType: PaymentType;
  paymentAmountWei: string;
  hasClaimed: boolean;
  updatedAt: string;
  claimableSignature?: ClaimableSignature;
}

export interface RefereeReward {
  paymentType: PaymentType;
  paymentAmountWei: string;
  hasClaimed: boolean;
  updatedAt: string;
  claimableSignature?: ClaimableSignature;
}

export interface Earnings {
  totalOroEarnedWei: string;
  usersReferred: ReferredUserEntry[];
  rewardForBeingReferee: RefereeReward | null;
  referredByUsername: string | null;
}

export interface AcceptInput {
  referralCode: string;
  signature: string;
  /** The nonce the message was built with; the newest outstanding one when omitted. */
  nonce?: string | undefined;
}

export type ActivationOutcome = "payable" | "pending" | "rejected" | "unavailable" | "unchanged";

/** Why a referral was refused when it would have become payable. */
export const REJECTION = {
  selfReferralSameHuman: "SELF_REFERRAL_SAME_HUMAN",
  humanAlreadyReferred: "HUMAN_ALREADY_REFERRED",
} as const;

/** How many pending referrals an earnings request brings up to date itself (the worker does the rest). */
const INLINE_ACTIVATIONS = 10;

type RewardWithReferral = ReferralReward & { referral: Referral & { referee: User; referrer: User } };

export type ReferralService = ReturnType<typeof createReferralService>;

export function createReferralService(options: ReferralServiceOptions) {
  const { prisma, chain, indexer, log } = options;
  const earningsCache = new TtlCache<Earnings>(options.earningsCacheTtlMs);
  /** A user's code never changes once created. */
  const codes = new TtlCache<string>(3_600_000, 100_000);

  function forget(...addresses: string[]) {
    for (const address of addresses) earningsCache.delete(address.toLowerCase());
  }

  /** The user's code for `app`, created on first request (collisions retried; a concurrent creator wins). */
  async function codeForUser(user: User, app: string): Promise<string> {
    const key = `${user.id}|${app}`;
    const known = codes.get(key);
    if (known) return known;
    const code = await findOrCreateCode(user, app);
    codes.set(key, code);
    return code;
  }

  async function findOrCreateCode(user: User, app: string): Promise<string> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const existing = await prisma.referralCode.findUnique({ where: { userId_app: { userId: user.id, app } } });
      if (existing) return existing.code;
      try {
        const created = await prisma.referralCode.create({
          data: { userId: user.id, app, code: randomString(REFERRAL_CODE_LENGTH, REFERRAL_CODE_ALPHABET) },
        });
        return created.code;
      } catch (error) {
        // Either the code is taken (try another) or another request created this user's code (read it).
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new Error("could not allocate a unique referral code");
  }

  async function issueAcceptNonce(user: User) {
    return options.auth.issueNonce("referral", getAddress(user.address));
  }

  /** The referee's standing: eligible while they have never minted, or when allow-listed; and their human. */
  async function eligibility(address: string): Promise<{ eligible: boolean; nullifierHash: Hex | null }> {
    const allowListed = (await prisma.referralAllowList.findUnique({ where: { address } })) !== null;
    try {
      const [claim] = await indexer.claims(getAddress(address), 1);
      if (!claim) return { eligible: true, nullifierHash: null };
      return { eligible: allowListed, nullifierHash: normaliseNullifierHash(claim.nullifierHash) };
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      if (allowListed) return { eligible: true, nullifierHash: null };
      log.warn({ err: error }, "eligibility check failed: indexer unavailable");
      throw new ApiError(503, "ELIGIBILITY_UNAVAILABLE", "cannot check eligibility right now: try again shortly");
    }
  }

  /** The humans (nullifier hashes) known to have minted to `user`'s address. */
  async function humansOf(user: User): Promise<Set<Hex>> {
    const humans = new Set<Hex>();
    if (user.nullifierHash) humans.add(normaliseNullifierHash(BigInt(user.nullifierHash)));
    const claims = await indexer.claims(getAddress(user.address), INDEXER_MAX_LIMIT);
    for (const claim of claims) humans.add(normaliseNullifierHash(claim.nullifierHash));
    return humans;
  }

  async function accept(referee: User, input: AcceptInput) {
    if (input.signature === "") {
      throw new ApiError(400, "SIGNATURE_REQUIRED", "sign the invite message first: the signature is empty");
    }
    if (!isHex(input.signature)) throw new ApiError(400, "SIGNATURE_INVALID", "the signature is not hex");
    const code = input.referralCode.trim().toUpperCase();
    const referralCode = await prisma.referralCode.findUnique({ where: { code }, include: { user: true } });
    if (!referralCode) throw new ApiError(404, "REFERRAL_CODE_NOT_FOUND", "the code you entered does not exist");
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

    const standing = await eligibility(referee.address);
    if (!standing.eligible) {
      throw new ApiError(403, "NOT_ELIGIBLE", "invites can only be accepted before the first claim");
    }
    if (standing.nullifierHash) {
      await refuseKnownHuman(referrer, standing.nullifierHash);
    }

    if (!(await options.auth.consumeNonce(nonce, "referral", refereeAddress))) {
      const reason = await options.auth.describeUnusableNonce(nonce, "referral");
      throw new ApiError(400, "SIGNATURE_INVALID", reason.message);
    }
    let referral: Referral;
    try {
      // The unique index on referee_id decides between concurrent accepts, not the read above.
      referral = await prisma.referral.create({
        data: { referrerId: referrer.id, refereeId: referee.id, referralCodeId: referralCode.id },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(409, "REFERRAL_ALREADY_EXISTS", "you have already accepted an invite");
      throw error;
    }
    forget(referrer.address, referee.address);
    if (standing.nullifierHash) {
      // An allow-listed referee who has minted before: payable at once.
      referral = (await activate(referral.id)).referral ?? referral;
    }
    return {
      referral: {
        id: referral.id,
        referralCode: code,
        status: referral.status,
        createdAt: referral.createdAt.toISOString(),
      },
      referralUser: { userId: referrer.id, username: referrer.username },
    };
  }

  async function refuseKnownHuman(referrer: User, refereeHuman: Hex) {
    const referrerHumans = await humansOf(referrer).catch((error: unknown) => {
      if (error instanceof IndexerUnavailableError) {
        throw new ApiError(503, "ELIGIBILITY_UNAVAILABLE", "cannot check eligibility right now: try again shortly");
      }
      throw error;
    });
    if (referrerHumans.has(refereeHuman)) throw new ApiError(400, "NO_SELF_REFERRAL", "you cannot refer yourself");
    const taken = await prisma.referral.findFirst({ where: { status: "payable", refereeNullifierHash: refereeHuman } });
    if (taken) throw new ApiError(409, "REFERRAL_ALREADY_EXISTS", "you have already accepted an invite");
  }

  async function newestAcceptNonce(address: string): Promise<string | undefined> {
    const row = await prisma.authNonce.findFirst({
      where: { purpose: "referral", address: address.toLowerCase(), consumedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
    });
    return row?.nonce;
  }

  /**
   * Makes a pending referral payable once the referee's first mint is on chain (per the indexer), creating
   * both sides' rewards in the same transaction. Idempotent: only the transition pending → payable writes.
   */
  async function activate(referralId: string): Promise<{ outcome: ActivationOutcome; referral?: Referral }> {
    const referral = await prisma.referral.findUnique({ where: { id: referralId }, include: { referee: true, referrer: true } });
    if (!referral || referral.status !== "pending") return { outcome: "unchanged" };
    let human: Hex;
    let referrerHumans: Set<Hex>;
    try {
      const [claim] = await indexer.claims(getAddress(referral.referee.address), 1);
      await prisma.referral.update({ where: { id: referralId }, data: { lastCheckedAt: new Date() } });
      if (!claim) return { outcome: "pending" };
      human = normaliseNullifierHash(claim.nullifierHash);
      referrerHumans = await humansOf(referral.referrer);
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      log.warn({ err: error, referralId }, "referral activation postponed: indexer unavailable");
      return { outcome: "unavailable" };
    }
    await prisma.user.update({ where: { id: referral.refereeId }, data: { nullifierHash: BigInt(human).toString() } });

    if (referrerHumans.has(human)) return reject(referral, human, REJECTION.selfReferralSameHuman);
    try {
      const updated = await prisma.$transaction(async (tx) => {
        const { count } = await tx.referral.updateMany({
          where: { id: referralId, status: "pending" },
          data: { status: "payable", refereeNullifierHash: human, activatedAt: new Date() },
        });
        if (count === 0) return undefined;
        await createReward(tx, referral.id, "referrer", referral.referrer);
        await createReward(tx, referral.id, "referee", referral.referee);
        return tx.referral.findUniqueOrThrow({ where: { id: referralId } });
      });
      forget(referral.referrer.address, referral.referee.address);
      if (!updated) return { outcome: "unchanged" };
      log.info({ referralId, human }, "referral payable: rewards created");
      return { outcome: "payable", referral: updated };
    } catch (error) {
      // The partial unique index: this human already has a payable referral (through another address).
      if (isUniqueViolation(error)) return reject(referral, human, REJECTION.humanAlreadyReferred);
      throw error;
    }
  }

  async function reject(referral: Referral & { referee: User; referrer: User }, human: Hex, reason: string) {
    const updated = await prisma.referral.update({
      where: { id: referral.id },
      data: { status: "rejected", rejectionReason: reason, refereeNullifierHash: human },
    });
    forget(referral.referrer.address, referral.referee.address);
    log.info({ referralId: referral.id, reason }, "referral rejected");
    return { outcome: "rejected" as const, referral: updated };
  }

  async function createReward(tx: Prisma.TransactionClient, referralId: string, side: RewardSide, beneficiary: User) {
    const rule = options.rewards[side];
    if (rule.amountWei <= 0n) return;
    const voucher = await createSignedVoucher(tx, chain, getAddress(beneficiary.address), rule.amountWei);
    await tx.referralReward.create({
      data: {
        referralId,
        side,
        beneficiaryId: beneficiary.id,
        paymentType: rule.paymentType,
        amountWei: voucher.amount.toString(),
        voucherNonce: voucher.nonce.toString(),
        voucherSignature: voucher.signature,
        chainId: voucher.chainId,
        contractAddress: voucher.contractAddress,
        status: rule.paymentType === "auto" ? "payout_pending" : "claimable",
      },
    });
  }

  /** Checks up to `limit` pending referrals, least recently checked first. Returns how many became payable. */
  async function activateDue(limit: number): Promise<number> {
    const due = await prisma.referral.findMany({
      where: { status: "pending" },
      orderBy: [{ lastCheckedAt: { sort: "asc", nulls: "first" } }, { createdAt: "asc" }],
      take: limit,
      select: { id: true },
    });
    let payable = 0;
    for (const { id } of due) {
      if ((await activate(id)).outcome === "payable") payable++;
    }
    return payable;
  }

  /** Records vouchers the chain has paid (the indexer's payouts; the contract's bitmap when it is down). */
  async function refreshClaimed(address: Address, rewards: RewardWithReferral[]): Promise<void> {
    const open = rewards.filter((reward) => reward.claimedAt === null);
    if (open.length === 0) return;
    let paid: Set<bigint>;
    try {
      const payouts = await indexer.payouts(address, INDEXER_MAX_LIMIT);
      paid = new Set(payouts.map((payout) => payout.nonce));
      if (payouts.length === INDEXER_MAX_LIMIT) {
        for (const reward of open) {
          const nonce = BigInt(reward.voucherNonce.toFixed());
          if (!paid.has(nonce) && (await indexer.isNonceClaimed(nonce))) paid.add(nonce);
        }
      }
    } catch (error) {
      if (!(error instanceof IndexerUnavailableError)) throw error;
      log.warn({ err: error }, "payouts read from the chain: indexer unavailable");
      paid = new Set();
      for (const reward of open) {
        const nonce = BigInt(reward.voucherNonce.toFixed());
        const used = await chain.isNonceUsed(nonce).catch(() => false);
        if (used) paid.add(nonce);
      }
    }
    const now = new Date();
    for (const reward of open) {
      if (!paid.has(BigInt(reward.voucherNonce.toFixed()))) continue;
      const updated = await prisma.referralReward.update({
        where: { id: reward.id },
        data: { claimedAt: now, ...(reward.paymentType === "auto" ? { status: "paid", lockedUntil: null } : {}) },
      });
      Object.assign(reward, updated);
    }
  }

  function present(reward: RewardWithReferral) {
    const base = {
      paymentType: reward.paymentType,
      paymentAmountWei: reward.amountWei.toFixed(),
      hasClaimed: reward.claimedAt !== null || reward.status === "paid",
      updatedAt: reward.updatedAt.toISOString(),
    };
    if (reward.paymentType !== "claimable") return base;
    const beneficiary = reward.side === "referrer" ? reward.referral.referrer : reward.referral.referee;
    return {
      ...base,
      claimableSignature: {
        contractAddress: getAddress(reward.contractAddress),
        message: {
          account: getAddress(beneficiary.address),
          amount: reward.amountWei.toFixed(),
          nonce: reward.voucherNonce.toFixed(),
        },
        signature: reward.voucherSignature as Hex,
      },
    };
  }

  async function earnings(user: User, { bypassCache }: { bypassCache: boolean }): Promise<Earnings> {
    const key = user.address.toLowerCase();
    if (!bypassCache) {
      const cached = earningsCache.get(key);
      if (cached) return cached;
    }
    const pending = await prisma.referral.findMany({
      where: { status: "pending", OR: [{ refereeId: user.id }, { referrerId: user.id }] },
      orderBy: [{ lastCheckedAt: { sort: "asc", nulls: "first" } }],
      take: INLINE_ACTIVATIONS,
      select: { id: true },
    });
    for (const { id } of pending) await activate(id);

    const rewards: RewardWithReferral[] = await prisma.referralReward.findMany({
      where: { beneficiaryId: user.id },
      include: { referral: { include: { referee: true, referrer: true } } },
      orderBy: { createdAt: "desc" },
    });
    await refreshClaimed(getAddress(user.address), rewards);

    let total = 0n;
    const usersReferred: ReferredUserEntry[] = [];
    let rewardForBeingReferee: RefereeReward | null = null;
    for (const reward of rewards) {
      total += BigInt(reward.amountWei.toFixed());
      if (reward.side === "referrer") {
        const referee = reward.referral.referee;
        usersReferred.push({ userId: referee.id, username: referee.username, ...present(reward) });
      } else {
        rewardForBeingReferee = present(reward);
      }
    }
    const asReferee = await prisma.referral.findUnique({ where: { refereeId: user.id }, include: { referrer: true } });
    const result: Earnings = {
      totalOroEarnedWei: total.toString(),
      usersReferred,
      rewardForBeingReferee,
      referredByUsername: asReferee?.referrer.username ?? null,
    };
    earningsCache.set(key, result);
    return result;
  }

  return { codeForUser, issueAcceptNonce, accept, activate, activateDue, earnings, forget };
}
