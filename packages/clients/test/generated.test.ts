import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getAddress } from "viem";
// @ts-expect-error -- plain ESM script without types; it is the generator the `generate` script runs.
import { OUTPUT_DIR, renderContracts } from "../scripts/contracts-codegen.mjs";
import { addresses, deployments, oroAbi, referralClaimAbi } from "../src/index.js";

describe("generated contract clients", () => {
  it("are up to date with the contract artifacts and deployments (run pnpm generate if this fails)", () => {
    const files = Object.entries((renderContracts as () => Record<string, string>)());
    expect(files.map(([name]) => name)).toContain("contracts.ts");
    for (const [name, text] of files) expect(text, name).toBe(readFileSync(join(OUTPUT_DIR as string, name), "utf8"));
  });

  it("carry the functions the apps call, with their exact signatures", () => {
    const oroFunctions = oroAbi.filter((item) => item.type === "function").map((item) => item.name);
    expect(oroFunctions).toEqual(expect.arrayContaining([
      "mint", "nullifierHashMintData", "waitBetweenMints", "amountPerMint", "balanceOf", "totalSupply", "owner",
    ]));
    const mints = oroAbi.filter((item) => item.type === "function" && item.name === "mint");
    expect(mints.map((item) => item.inputs.map((input) => input.type)).sort((a, b) => a.length - b.length)).toEqual([
      ["uint256", "uint256", "uint256[8]"],
      ["uint256", "uint256", "uint256[8]", "address"],
    ]);
    const preview = referralClaimAbi.find((item) => item.type === "function" && item.name === "previewClaim");
    expect(preview?.type === "function" ? preview.outputs.map((output) => output.name) : []).toEqual([
      "nonceId", "wasClaimed", "digest", "recovered",
    ]);
  });

  it("give checksummed addresses per chain that match the recorded deployments", () => {
    const local = addresses[31337];
    expect(local.Oro).toBe(getAddress(local.Oro));
    expect(local.Oro).toBe(deployments[31337].contracts.Oro.address);
    expect(deployments[31337].contracts.Oro.blockNumber).toBeGreaterThan(0);
    expect(deployments[31337].worldId.action).toBe("claim-tokens-action");
  });
});
