import { decodeErrorResult, encodeFunctionData, getAddress, toHex, type Address, type Hex } from "viem";

/** EIP-1967's implementation slot: bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1). */
export const EIP1967_IMPLEMENTATION_SLOT: Hex = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";

/**
 * What World's World ID 4.0 verifier is behind its proxy: the implementation the proxy points at, and which of
 * World's versions it behaves as. V2 (world-id-protocol WorldIDVerifierV2) refuses an action without its prefix byte
 * before anything else (InvalidAction); V1 (WorldIDVerifier, World's recorded production deployment) checks no prefix
 * and fails on the root. ORO's guarantees hold under both; the deploy prints which one it found.
 */
export interface WorldIdVerifierInfo {
  proxy: Address;
  /** The EIP-1967 implementation, or null when the address is not an EIP-1967 proxy (a mock). */
  implementation: Address | null;
  version: "V1" | "V2" | "unknown";
}

const PROBE_ABI = [
  {
    type: "function",
    name: "verify",
    stateMutability: "view",
    inputs: ["uint256", "uint256", "uint64", "uint256", "uint256", "uint64", "uint64", "uint256", "uint256[5]"].map((type) => ({ type, name: "" })),
    outputs: [],
  },
  { type: "error", name: "InvalidAction", inputs: [] },
  { type: "error", name: "InvalidMerkleRoot", inputs: [] },
] as const;

interface ReadClient {
  getStorageAt(args: { address: Address; slot: Hex }): Promise<Hex | undefined>;
  call(args: { to: Address; data: Hex }): Promise<unknown>;
}

/** The revert data of a failed eth_call, wherever viem's error chain keeps it. */
function revertData(error: unknown): Hex | undefined {
  for (let cause: unknown = error; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    const data = (cause as { data?: unknown }).data;
    if (typeof data === "string" && data.startsWith("0x")) return data as Hex;
    if (data && typeof data === "object" && typeof (data as { data?: unknown }).data === "string") return (data as { data: Hex }).data;
  }
  return undefined;
}

export async function inspectWorldIdVerifier(client: ReadClient, proxy: Address): Promise<WorldIdVerifierInfo> {
  const slot = await client.getStorageAt({ address: proxy, slot: EIP1967_IMPLEMENTATION_SLOT });
  const word = BigInt(slot && slot !== "0x" ? slot : 0);
  const implementation = word === 0n ? null : getAddress(toHex(word & ((1n << 160n) - 1n), { size: 20 }));
  // A uniqueness proof whose action carries the session prefix byte, against root 0: V2 refuses the action first.
  const data = encodeFunctionData({
    abi: PROBE_ABI,
    functionName: "verify",
    args: [1n, 1n << 248n, 1n, 0n, 0n, 0n, 1n, 0n, [0n, 0n, 0n, 0n, 0n]],
  });
  let version: WorldIdVerifierInfo["version"] = "unknown";
  try {
    await client.call({ to: proxy, data });
  } catch (error) {
    const reverted = revertData(error);
    if (reverted) {
      try {
        const { errorName } = decodeErrorResult({ abi: PROBE_ABI, data: reverted });
        version = errorName === "InvalidAction" ? "V2" : "V1";
      } catch {
        version = "unknown";
      }
    }
  }
  return { proxy: getAddress(proxy), implementation, version };
}
