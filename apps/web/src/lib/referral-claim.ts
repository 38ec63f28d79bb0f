import type { ApiSchemas } from "@oro/clients";
import { decodeFunctionResult, encodeFunctionData, getAddress, isAddressEqual, type Hex } from "viem";
import { deployment } from "../env";
import { chainClient, MissingDeploymentError } from "./chain";
import type { ContractCall } from "./world-app/send-transaction";

/*
 * The ReferralClaim contract's calls: its own module, loaded with the share screen (default-services imports it on
 * demand), so its ABI stays out of the first load.
 */

/**
 * The three functions of the generated `referralClaimAbi` that the app calls, item for item (test/chain.test.ts
 * checks each against the generated ABI). Importing the generated constant would put the whole ABI in the first
 * load: it lives in one module with the token's ABI, which the first load needs.
 */
export const referralClaimCalls = [
  {
    inputs: [
      {
        components: [
          { internalType: "address", name: "account", type: "address" },
          { internalType: "uint256", name: "amount", type: "uint256" },
          { internalType: "uint256", name: "nonce", type: "uint256" },
        ],
        internalType: "struct ReferralClaim.Voucher",
        name: "voucher",
        type: "tuple",
      },
      { internalType: "bytes", name: "signature", type: "bytes" },
    ],
    name: "claim",
    outputs: [],
    stateMutability: "nonpayable",
    type: "function",
  },
  {
    inputs: [
      { internalType: "address", name: "account", type: "address" },
      { internalType: "uint256", name: "amount", type: "uint256" },
      { internalType: "uint256", name: "nonce", type: "uint256" },
      { internalType: "bytes", name: "signature", type: "bytes" },
    ],
    name: "previewClaim",
    outputs: [
      { internalType: "uint256", name: "nonceId", type: "uint256" },
      { internalType: "bool", name: "wasClaimed", type: "bool" },
      { internalType: "bytes32", name: "digest", type: "bytes32" },
      { internalType: "address", name: "recovered", type: "address" },
    ],
    stateMutability: "view",
    type: "function",
  },
  { inputs: [], name: "signer", outputs: [{ internalType: "address", name: "", type: "address" }], stateMutability: "view", type: "function" },
] as const;

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
    data: encodeFunctionData({ abi: referralClaimCalls, functionName: "claim", args: [voucher, claimable.signature as Hex] }),
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
        abi: referralClaimCalls,
        functionName: "previewClaim",
        args: [voucher.account, voucher.amount, voucher.nonce, claimable.signature as Hex],
      }),
    ),
    call(encodeFunctionData({ abi: referralClaimCalls, functionName: "signer" })),
  ]);
  const [, wasClaimed, , recovered] = decodeFunctionResult({ abi: referralClaimCalls, functionName: "previewClaim", data: previewData });
  const signer = decodeFunctionResult({ abi: referralClaimCalls, functionName: "signer", data: signerData });
  return { wasClaimed, validSignature: isAddressEqual(recovered, signer) };
}
