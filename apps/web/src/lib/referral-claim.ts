import { referralClaimAbi, type ApiSchemas } from "@oro/clients";
import { decodeFunctionResult, encodeFunctionData, getAddress, isAddressEqual, type Hex } from "viem";
import { deployment } from "../env";
import { chainClient, MissingDeploymentError } from "./chain";
import type { ContractCall } from "./world-app/send-transaction";

/*
 * The ReferralClaim contract's calls: its own module, loaded with the share screen (default-services imports it on
 * demand), so its ABI stays out of the first load (the generated ABIs are one module each, so the bundler puts this
 * one in the share screen's chunk).
 */


/** Thrown when the API hands a voucher for a contract that is not this chain's ReferralClaim. */
export class UnexpectedVoucherContractError extends Error {
  override readonly name = "UnexpectedVoucherContractError";
}

/**
 * The referral reward claim: `ReferralClaim.claim(voucher, signature)` with the voucher the API signed. The call
 * only goes to the ReferralClaim of the generated deployments, whatever address the answer names.
 */
function voucherOf(claimable: ApiSchemas["ClaimableSignature"]) {
  const claimContract = deployment?.contracts.ReferralClaim.address;
  if (!claimContract) throw new MissingDeploymentError();
  if (!isAddressEqual(getAddress(claimable.contractAddress), claimContract)) {
    throw new UnexpectedVoucherContractError(`The voucher is for ${claimable.contractAddress}, not ${claimContract}`);
  }
  const voucher = {
    account: getAddress(claimable.message.account),
    amount: BigInt(claimable.message.amount),
    nonce: BigInt(claimable.message.nonce),
  };
  return { claimContract, voucher };
}

export function buildVoucherClaimCall(claimable: ApiSchemas["ClaimableSignature"]): ContractCall {
  const { claimContract, voucher } = voucherOf(claimable);
  return {
    to: claimContract,
    data: encodeFunctionData({ abi: referralClaimAbi, functionName: "claim", args: [voucher, claimable.signature as Hex] }),
  };
}

/** What the chain says of a voucher before it is sent: used already, and signed by the contract's signer. */
export interface VoucherPreview {
  wasClaimed: boolean;
  validSignature: boolean;
}

/**
 * `previewClaim` (read only) on the ReferralClaim contract, beside its `signer`: a voucher already used (from
 * another device) or not signed by the signer would only cost the user a failed transaction.
 */
export async function previewVoucherClaim(claimable: ApiSchemas["ClaimableSignature"]): Promise<VoucherPreview> {
  const { claimContract, voucher } = voucherOf(claimable);
  const call = (data: Hex) => chainClient.request({ method: "eth_call", params: [{ to: claimContract, data }, "latest"] });
  const [previewData, signerData] = await Promise.all([
    call(
      encodeFunctionData({
        abi: referralClaimAbi,
        functionName: "previewClaim",
        args: [voucher.account, voucher.amount, voucher.nonce, claimable.signature as Hex],
      }),
    ),
    call(encodeFunctionData({ abi: referralClaimAbi, functionName: "signer" })),
  ]);
  const [, wasClaimed, , recovered] = decodeFunctionResult({ abi: referralClaimAbi, functionName: "previewClaim", data: previewData });
  const signer = decodeFunctionResult({ abi: referralClaimAbi, functionName: "signer", data: signerData });
  return { wasClaimed, validSignature: isAddressEqual(recovered, signer) };
}
