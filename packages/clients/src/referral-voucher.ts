import type { Address } from "viem";

/** A referral reward voucher as the ReferralClaim contract pays it (amount in wei). */
export interface ReferralVoucher {
  account: Address;
  amount: bigint;
  nonce: bigint;
}

/** EIP-712 types of a voucher; the contract's VOUCHER_TYPEHASH is the hash of this type. */
export const referralVoucherTypes = {
  Voucher: [
    { name: "account", type: "address" },
    { name: "amount", type: "uint256" },
    { name: "nonce", type: "uint256" },
  ],
} as const;

/** The EIP-712 domain of a ReferralClaim deployment: bound to its chain and address, so vouchers do not travel. */
export function referralClaimDomain(chainId: number, verifyingContract: Address) {
  return { name: "ORO ReferralClaim", version: "1", chainId, verifyingContract } as const;
}

/** Everything `signTypedData` / `hashTypedData` need to sign or hash a voucher for one deployment. */
export function referralVoucherTypedData(chainId: number, verifyingContract: Address, voucher: ReferralVoucher) {
  return {
    domain: referralClaimDomain(chainId, verifyingContract),
    types: referralVoucherTypes,
    primaryType: "Voucher",
    message: voucher,
  } as const;
}
