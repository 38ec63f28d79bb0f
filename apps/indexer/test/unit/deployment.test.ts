import { describe, expect, it } from "vitest";
import { addresses, deployments } from "@oro/clients";
import { deploymentFor } from "../../src/lib/deployment";

describe("deploymentFor", () => {
  it("takes the addresses and start blocks recorded in @oro/clients", () => {
    expect(deploymentFor(31337)).toEqual({
      chainId: 31337,
      oro: { address: addresses[31337].Oro, startBlock: deployments[31337].contracts.Oro.blockNumber },
      referralClaim: {
        address: addresses[31337].ReferralClaim,
        startBlock: deployments[31337].contracts.ReferralClaim.blockNumber,
      },
    });
  });

  it("refuses a chain without a recorded deployment in one line", () => {
    expect(() => deploymentFor(1)).toThrow("@oro/clients has no ORO deployment for chain 1");
  });
});
