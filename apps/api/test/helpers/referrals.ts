import { buildReferralMessage, REFERRAL_APP } from "@oro/clients";
import type { FastifyInstance } from "fastify";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { LocalAccount } from "viem";
import type { PrismaClient } from "../../src/generated/prisma/client.js";
import { bearer, signIn } from "./siwe.js";

export interface TestUser {
  account: LocalAccount;
  token: string;
  address: `0x${string}`;
}

export async function newUser(app: FastifyInstance, username?: string, account?: LocalAccount): Promise<TestUser> {
  const wallet = account ?? privateKeyToAccount(generatePrivateKey());
  const token = await signIn(app, wallet, username);
  return { account: wallet, token, address: wallet.address.toLowerCase() as `0x${string}` };
}

export async function referralCodeOf(app: FastifyInstance, user: TestUser): Promise<string> {
  const response = await app.inject({
    method: "GET",
    url: `/api/referral_codes/for_user?userAddress=${user.address}&app=${REFERRAL_APP}`,
    headers: bearer(user.token),
  });
  if (response.statusCode !== 200) throw new Error(`for_user: ${response.statusCode} ${response.body}`);
  return response.json<{ referralCode: { referralCode: string } }>().referralCode.referralCode;
}

export async function referralNonce(app: FastifyInstance, user: TestUser): Promise<string> {
  const response = await app.inject({
    method: "GET",
    url: `/api/referrals/nonce?userAddress=${user.address}`,
    headers: bearer(user.token),
  });
  if (response.statusCode !== 200) throw new Error(`referral nonce: ${response.statusCode} ${response.body}`);
  return response.json<{ nonce: string }>().nonce;
}

export interface AcceptOptions {
  /** Who signs (default: the referee). */
  signer?: LocalAccount;
  /** The code written in the signed message (default: the code sent). */
  messageCode?: string;
  /** Send this signature instead of signing. */
  signature?: string;
  /** Use this nonce (default: a fresh one); `false` leaves the nonce parameter out. */
  nonce?: string;
  sendNonce?: boolean;
}

/** Accepts `code` for `referee` through the real endpoints: nonce, signed invite message, accept. */
export async function acceptCode(app: FastifyInstance, referee: TestUser, code: string, options: AcceptOptions = {}) {
  const nonce = options.nonce ?? (await referralNonce(app, referee));
  const message = buildReferralMessage({ referralCode: options.messageCode ?? code, address: referee.address, nonce });
  const signature = options.signature ?? (await (options.signer ?? referee.account).signMessage({ message }));
  const query = new URLSearchParams({ userAddress: referee.address, referralCode: code, signature });
  if (options.sendNonce !== false) query.set("nonce", nonce);
  return app.inject({ method: "POST", url: `/api/referrals/refer_with_signature?${query.toString()}`, headers: bearer(referee.token) });
}

/**
 * A time (unix seconds) a minute after the referee's acceptance as the API recorded it, on the chain's clock: when the
 * referee's first mint counts as after it. Not the newest block's time, which is older than the acceptance when a
 * loaded machine took over a minute since that block was mined.
 */
export async function aMinuteAfterAcceptance(prisma: PrismaClient, referee: TestUser): Promise<number> {
  const referral = await prisma.referral.findFirstOrThrow({ where: { referee: { address: referee.address } } });
  return Math.floor((referral.acceptedAtBlockTime ?? referral.createdAt).getTime() / 1000) + 60;
}

export async function oroEarned(app: FastifyInstance, user: TestUser, forceBustCache = true) {
  const response = await app.inject({
    method: "GET",
    url: `/api/referrals/oro-earned?userAddress=${user.address}&forceBustCache=${forceBustCache}`,
    headers: bearer(user.token),
  });
  if (response.statusCode !== 200) throw new Error(`oro-earned: ${response.statusCode} ${response.body}`);
  return response.json<OroEarned>();
}

export interface ClaimableSignature {
  contractAddress: `0x${string}`;
  message: { account: `0x${string}`; amount: string; nonce: string };
  signature: `0x${string}`;
}

export interface Reward {
  paymentType: "claimable" | "auto";
  paymentAmountWei: string;
  hasClaimed: boolean;
  updatedAt: string;
  claimableSignature?: ClaimableSignature;
}

export interface OroEarned {
  totalOroEarnedWei: string;
  usersReferred: (Reward & { userId: string; username: string | null })[];
  rewardForBeingReferee: Reward | null;
  referredByUsername: string | null;
  refereeRewardPending: boolean;
  usersReferredCount: number;
  nextCursor: string | null;
}
