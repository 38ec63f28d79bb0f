import hre from "hardhat";
import { expect } from "chai";
import {
  decodeErrorResult,
  getAddress,
  isAddress,
  isHex,
  parseEventLogs,
  BaseError,
  ContractFunctionRevertedError,
  type Abi,
  type AbiItem,
  type Address,
  type Hash,
  type Hex,
  type Log,
} from "viem";

/**
 * Every error and event of every compiled artifact (ours and OpenZeppelin's), once each. Errors raised by
 * another contract than the one called (the router's InvalidProof bubbling through Oro, Oro's ERC20 errors
 * bubbling through ReferralClaim or the faucet) decode with it, and so do logs of any of our contracts.
 */
let mergedAbiCache: Abi | undefined;

export async function mergedAbi(): Promise<Abi> {
  if (mergedAbiCache !== undefined) return mergedAbiCache;
  const seen = new Set<string>();
  const items: AbiItem[] = [];
  for (const fullyQualifiedName of await hre.artifacts.getAllFullyQualifiedNames()) {
    const artifact = await hre.artifacts.readArtifact(fullyQualifiedName);
    const abi: Abi = artifact.abi;
    for (const item of abi) {
      if (item.type !== "error" && item.type !== "event") continue;
      const key = `${item.type} ${item.name}(${item.inputs
        .map((input) => `${input.type}${"indexed" in input && input.indexed === true ? " indexed" : ""}`)
        .join(",")})`;
      if (seen.has(key)) continue;
      seen.add(key);
      items.push(item);
    }
  }
  mergedAbiCache = items;
  return items;
}

/** Checksums every address inside a value (viem decodes checksummed, hardhat-viem hands out lower case). */
export function normalize(value: unknown): unknown {
  if (typeof value === "string" && value.length === 42 && isAddress(value, { strict: false })) return getAddress(value);
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, normalize(entry)]));
  }
  return value;
}

function hasHexData(error: unknown): error is { data: Hex } {
  return (
    typeof error === "object" &&
    error !== null &&
    "data" in error &&
    typeof error.data === "string" &&
    isHex(error.data)
  );
}

/**
 * The raw revert data in a viem error chain: viem's ContractFunctionRevertedError when viem recognised the
 * revert, otherwise the data of the node's own error at the bottom of the chain (Hardhat reports reverts as
 * an "unknown RPC error" whose cause carries the data).
 */
function revertDataOf(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return hasHexData(error) ? error.data : undefined;
  let found: Hex | undefined;
  error.walk((cause) => {
    if (cause instanceof ContractFunctionRevertedError && cause.raw !== undefined) {
      found = cause.raw;
      return true;
    }
    if (hasHexData(cause)) {
      found = cause.data;
      return true;
    }
    return false;
  });
  return found;
}

export interface DecodedRevert {
  errorName: string;
  args: readonly unknown[];
}

/** Awaits a call or transaction that must revert and returns its custom error, decoded with every known ABI. */
export async function revertOf(promise: Promise<unknown>): Promise<DecodedRevert> {
  let threw = false;
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    threw = true;
    caught = error;
  }
  if (!threw) expect.fail("expected a revert, but the call succeeded");
  const data = revertDataOf(caught);
  if (data === undefined || data === "0x") {
    const description = caught instanceof Error ? caught.message : JSON.stringify(caught);
    expect.fail(`expected a custom error, got a failure without revert data: ${description}`);
  }
  const decoded = decodeErrorResult({ abi: await mergedAbi(), data });
  return { errorName: decoded.errorName, args: decoded.args ?? [] };
}

/** Asserts that `promise` reverts with exactly the custom error `errorName(...args)`. */
export async function expectRevert(
  promise: Promise<unknown>,
  errorName: string,
  args: readonly unknown[] = [],
): Promise<void> {
  const decoded = await revertOf(promise);
  expect(normalize(decoded)).to.deep.equal(normalize({ errorName, args }));
}

export interface DecodedLog {
  address: Address;
  eventName: string;
  args: unknown;
}

/** Every log, decoded with every known ABI, with the emitting address: the full story a receipt tells. */
export async function decodeLogs(logs: readonly Log[]): Promise<DecodedLog[]> {
  const parsed = parseEventLogs({ abi: await mergedAbi(), logs: [...logs], strict: true });
  expect(parsed.length, "every log decodes").to.equal(logs.length);
  return parsed.map((log) => normalize({ address: log.address, eventName: log.eventName, args: log.args }) as DecodedLog);
}

/** Waits for a transaction and returns its decoded logs, after checking it succeeded. */
export async function logsOf(hash: Hash): Promise<DecodedLog[]> {
  const publicClient = await hre.viem.getPublicClient();
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).to.equal("success");
  return decodeLogs(receipt.logs);
}

/** The expected form of a log, for deep equality with decodeLogs' output. */
export function event(address: Address, eventName: string, args: Record<string, unknown>): DecodedLog {
  return normalize({ address, eventName, args }) as DecodedLog;
}

/** Timestamp of the block a transaction was mined in. */
export async function blockTimestampOf(hash: Hash): Promise<bigint> {
  const publicClient = await hre.viem.getPublicClient();
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  const block = await publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return block.timestamp;
}

export async function latestTimestamp(): Promise<bigint> {
  const publicClient = await hre.viem.getPublicClient();
  return (await publicClient.getBlock()).timestamp;
}

/** Array access that fails the test, instead of returning undefined, when the element is missing. */
export function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) expect.fail(`no element at index ${index}`);
  return item;
}
