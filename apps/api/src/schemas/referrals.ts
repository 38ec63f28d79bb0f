import { REFERRAL_APP, REFERRAL_CODE_LENGTH } from "@oro/clients";
import { z } from "zod";
import { ReferralStatus } from "../generated/prisma/enums.js";
import { ELIGIBILITY_REASON } from "../services/referrals/acceptance.js";
import { CURSOR_PATTERN, INVITES_PAGE_SIZE } from "../services/referrals/invites-page.js";
import { addressSchema, booleanQuery, paymentTypeSchema, weiSchema } from "./common.js";

export { userAddressQuery } from "./common.js";

export const referralCodeQuerySchema = z.object({
  userAddress: addressSchema,
  app: z.enum([REFERRAL_APP]).meta({ description: "The product's app id" }),
});

export const referralCodeResponseSchema = z
  .object({
    referralCode: z.object({
      referralCode: z.string().length(REFERRAL_CODE_LENGTH).meta({ description: "8 characters, upper case", example: "K7QX3MZP" }),
    }),
  })
  .meta({ id: "ReferralCodeResponse" });

export const referralNonceResponseSchema = z
  .object({
    nonce: z.string(),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: "ReferralNonce", description: "Sign buildReferralMessage({ referralCode, address, nonce }) from @oro/clients" });

export const referWithSignatureQuerySchema = z.object({
  userAddress: addressSchema,
  referralCode: z
    .string()
    .trim()
    .length(REFERRAL_CODE_LENGTH)
    .regex(/^[A-Za-z0-9]*$/, { message: "must be letters and digits" })
    .meta({ description: "The invite code; matched case-insensitively" }),
  signature: z
    .string()
    .max(20_000)
    .regex(/^[0-9A-Za-z]*$/, { message: "must be a 0x-prefixed hex string (or empty)" })
    .meta({ description: "personal_sign of buildReferralMessage(...); an empty string means not signed" }),
  nonce: z
    .string()
    .regex(/^[A-Za-z0-9]{8,64}$/)
    .optional()
    .meta({ description: "The nonce the message was built with; defaults to the newest one issued to userAddress" }),
});

export const referralStatusSchema = z.enum(ReferralStatus);

export const referWithSignatureResponseSchema = z
  .object({
    referral: z.object({
      id: z.string(),
      referralCode: z.string(),
      status: referralStatusSchema.meta({ description: "pending until the referee's first claim is on chain" }),
      createdAt: z.iso.datetime(),
    }),
    referralUser: z.object({ userId: z.string(), username: z.string().nullable() }).meta({ description: "The referrer" }),
  })
  .meta({ id: "AcceptedReferral" });

export const oroEarnedQuerySchema = z.object({
  userAddress: addressSchema,
  forceBustCache: booleanQuery.default(false).meta({ description: "true reads through the per-user cache" }),
  cursor: z
    .string()
    .regex(CURSOR_PATTERN, { message: "must be the nextCursor of an earlier answer" })
    .optional()
    .meta({
      description:
        "The nextCursor of the previous page, to read the invites after it; absent for the first page. Opaque; a cursor of " +
        "another user's list, or one this API did not issue, is a 400 naming querystring.cursor.",
    }),
});

export const claimableSignatureSchema = z
  .object({
    contractAddress: z.string(),
    message: z.object({ account: z.string(), amount: weiSchema, nonce: z.string().regex(/^\d+$/) }),
    signature: z.string(),
  })
  .meta({ id: "ClaimableSignature", description: "An EIP-712 voucher for ReferralClaim.claim(message, signature)" });

const rewardFields = {
  paymentType: paymentTypeSchema,
  paymentAmountWei: weiSchema,
  hasClaimed: z.boolean().meta({ description: "The voucher's nonce is used on chain" }),
  updatedAt: z.iso.datetime(),
  claimableSignature: claimableSignatureSchema.optional().meta({ description: "Present for claimable rewards" }),
};

export const referredUserSchema = z
  .object({ userId: z.string(), username: z.string().nullable(), ...rewardFields })
  .meta({ id: "ReferredUser" });

export const refereeRewardSchema = z.object(rewardFields).meta({ id: "RefereeReward" });

export const oroEarnedResponseSchema = z
  .object({
    totalOroEarnedWei: weiSchema,
    usersReferred: z.array(referredUserSchema).max(INVITES_PAGE_SIZE).meta({
      description:
        `One page (at most ${INVITES_PAGE_SIZE}) of the people the user invited, in the spec's order: claimable and not claimed, then ` +
        "claimable and claimed, then the others; newest update first within each. The pages follow one another through nextCursor.",
    }),
    rewardForBeingReferee: refereeRewardSchema.nullable(),
    referredByUsername: z.string().nullable(),
    refereeRewardPending: z.boolean().meta({
      description:
        "true while the user's own invite waits for their first claim to be seen on chain: rewardForBeingReferee is then on its way, and a client showing this answer reads it again shortly",
    }),
    usersReferredCount: z.int().nonnegative().meta({ description: "How many invites paid, over every page (what the share screen shows as users referred)" }),
    nextCursor: z.string().nullable().meta({ description: "Pass as cursor to read the next page; null when this page is the last" }),
  })
  .meta({
    id: "OroEarned",
    description: "totalOroEarnedWei and usersReferredCount cover the whole history; usersReferred is one page. Every page carries the totals.",
  });

export const referralProgrammeResponseSchema = z
  .object({
    referrerRewardWei: weiSchema.meta({ description: "What the sharer earns for each invite that claims (REFERRAL_REFERRER_REWARD)" }),
    refereeRewardWei: weiSchema.meta({ description: "What the invited person earns (REFERRAL_REFEREE_REWARD)" }),
  })
  .meta({ id: "ReferralProgramme" });

export const referralEligibilityResponseSchema = z
  .object({
    eligible: z.boolean().meta({ description: "Whether the wallet may accept an invite now" }),
    reason: z.enum(Object.values(ELIGIBILITY_REASON)).meta({
      description:
        "NEVER_CLAIMED: no human is known to have minted to this wallet; ALLOW_LISTED: the wallet's human (while none is known, " +
        "this wallet) is on the allow-list and may accept although they have claimed; " +
        "ALREADY_CLAIMED: the wallet's human has minted; ALREADY_REFERRED: this wallet, or another wallet of the same human, has a referral",
    }),
    referralApplied: z.boolean().meta({ description: "This wallet has accepted an invite" }),
    referrerUsername: z.string().nullable().meta({ description: "Who referred this wallet, when referralApplied" }),
  })
  .meta({ id: "ReferralEligibility" });
