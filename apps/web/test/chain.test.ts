import { addresses, oroAbi, referralClaimAbi } from "@oro/clients";
import { decodeFunctionData } from "viem";
import { describe, expect, it } from "vitest";
import { buildMintCall, oroAddress } from "../src/lib/chain";
import { buildVoucherClaimCall, UnexpectedVoucherContractError } from "../src/lib/referral-claim";
import { devVerification, USER } from "./fakes";

describe("contract calls (generated ABIs and addresses)", () => {
  it("the mint goes to the ORO token with root, nullifier hash, the 8-element proof and the receiver", () => {
    const verification = devVerification();
    const call = buildMintCall(verification, USER);
    expect(call.to).toBe(addresses[31337].Oro);
    expect(oroAddress()).toBe(addresses[31337].Oro);
    const { functionName, args } = decodeFunctionData({ abi: oroAbi, data: call.data });
    expect(functionName).toBe("mint");
    expect(args).toEqual([verification.merkleRoot, verification.nullifierHash, verification.proof, USER]);
  });

  it("the voucher claim goes to ReferralClaim.claim(voucher, signature)", () => {
    const call = buildVoucherClaimCall({
      contractAddress: addresses[31337].ReferralClaim.toLowerCase(),
      message: { account: USER.toLowerCase(), amount: "2000000000000000000", nonce: "513" },
      signature: "0x1234",
    });
    expect(call.to).toBe(addresses[31337].ReferralClaim);
    const { functionName, args } = decodeFunctionData({ abi: referralClaimAbi, data: call.data });
    expect(functionName).toBe("claim");
    expect(args).toEqual([{ account: USER, amount: 2_000_000_000_000_000_000n, nonce: 513n }, "0x1234"]);
  });

  it("refuses a voucher for any other contract", () => {
    expect(() =>
      buildVoucherClaimCall({
        contractAddress: addresses[31337].Oro,
        message: { account: USER, amount: "1", nonce: "1" },
        signature: "0x1234",
      }),
    ).toThrow(UnexpectedVoucherContractError);
  });
});

