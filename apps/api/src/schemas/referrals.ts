import { REFERRAL_APP, REFERRAL_CODE_LENGTH } from "@oro/clients";
import { z } from "zod";
import { ReferralStatus } from "../generated/prisma/enums.js";
import { ELIGIBILITY_REASON } from "../services/referrals/acceptance.js";
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
    usersReferred: z.array(referredUserSchema),
    rewardForBeingReferee: refereeRewardSchema.nullable(),
    referredByUsername: z.string().nullable(),
  })
  .meta({ id: "OroEarned" });

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
