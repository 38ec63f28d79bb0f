/**
 * A chain source for the backfill bench that is not the bottleneck: a JSON-RPC server (node:http on 127.0.0.1)
 * that answers Ponder's requests from blocks and logs computed from their block number, never stored. It serves
 * chain 31337 with ORO and ReferralClaim at the addresses @oro/clients records for the local deployment (the ones
 * ponder.config.ts indexes), so Ponder runs unchanged through its normal RPC path.
 *
 * The chain:
 * - blocks 0–2: empty (the local deploy's router and verifier, which Ponder does not index);
 * - block 3: ORO's constructor events (OwnershipTransferred, AmountPerMintUpdated, WaitBetweenMintsUpdated,
 *   ExternalNullifierUpdated, WorldIdVerifierUpdated, WorldId4SettingsUpdated), encoded with viem;
 * - block 4: ReferralClaim's (OwnershipTransferred, SignerUpdated);
 * - from block 5: `perBlock` mints a block until `mints` mints, then `tail` empty blocks (past Ponder's 30-block
 *   finality window, so the whole set is backfill), then, once `startLive()` is called, one block every
 *   `liveIntervalMs` with `livePerBlock` mints each.
 * Mint i is human (i mod humans)'s mint number floor(i / humans) + 1, so every human mints once a round, in the
 * same order. Every `v4Every`-th human is a World ID 4.0 human: their first mint is an enrolment
 * (WorldId4Enrolled, Transfer, MintedWithSession) and later ones are session mints (Transfer, MintedWithSession);
 * the others are 3.0 humans (Transfer, Minted), exactly as Oro.sol emits them. Each mint is its own transaction
 * (a `mint(root, nullifierHash, proof, receiver)` call from the receiving wallet). Addresses, nullifier hashes and
 * hashes are pseudo-random (a 32-bit mixer), so database keys arrive in random order as real ones do.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  decodeEventLog,
  encodeAbiParameters,
  encodeEventTopics,
  getAbiItem,
  toFunctionSelector,
  type Address,
  type Hex,
} from "viem";
import { deployments, oroAbi, referralClaimAbi } from "@oro/clients";

export interface SyntheticChainOptions {
  mints: number;
  humans: number;
  perBlock: number;
  /** Every v4Every-th human is a World ID 4.0 human (0: none). */
  v4Every: number;
  /** Empty blocks after the last backfill mint. */
  tail: number;
  livePerBlock: number;
  liveIntervalMs: number;
  /** Seconds between blocks. */
  blockTime: number;
  /**
   * Logs served as they are in blocks after the last backfill mint (within the tail), each its own transaction: events
   * the contracts' ABI allows but an honest chain never emits (test/integration/hostile-chain.test.ts).
   */
  extraLogs?: ReadonlyMap<number, readonly { address: Address; topics: readonly Hex[]; data: Hex }[]>;
}

export const FIRST_MINT_BLOCK = 5;
const ORO_BLOCK = 3;
const CLAIM_BLOCK = 4;
const CHAIN_ID = 31337;
const AMOUNT_PER_MINT = 10n ** 18n;

const local = deployments[CHAIN_ID];
const ORO: Address = local.contracts.Oro.address.toLowerCase() as Address;
const CLAIM: Address = local.contracts.ReferralClaim.address.toLowerCase() as Address;
const OWNER: Address = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const SIGNER: Address = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

const topic0 = (name: string, abi: typeof oroAbi | typeof referralClaimAbi = oroAbi): Hex =>
  encodeEventTopics({ abi: abi as typeof oroAbi, eventName: name as "Transfer" })[0];
const T_TRANSFER = topic0("Transfer");
const T_MINTED = topic0("Minted");
const T_MINTED_SESSION = topic0("MintedWithSession");
const T_ENROLLED = topic0("WorldId4Enrolled");
const MINT_SELECTOR = toFunctionSelector(
  getAbiItem({ abi: oroAbi, name: "mint", args: [0n, 0n, [0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n], OWNER] }),
).slice(2);

// ---------------------------------------------------------------- deterministic pseudo-random hex

/** murmur3's 32-bit finaliser: a cheap, well-spread bijection. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** `words` × 8 hex digits derived from (a, b, salt). */
function hexWords(a: number, b: number, salt: number, words: number): string {
  let out = "";
  let state = mix32(a ^ mix32(b + 0x9e3779b9 * salt));
  for (let i = 0; i < words; i++) {
    state = mix32(state + 0x6d2b79f5 + i);
    out += state.toString(16).padStart(8, "0");
  }
  return out;
}

const word = (value: number | bigint): string => value.toString(16).padStart(64, "0");
const hexNum = (value: number | bigint): Hex => `0x${value.toString(16)}`;

/** A human's receiving wallet (40 hex digits, no 0x). */
const receiverOf = (human: number): string => hexWords(human, 1, 11, 5);
/** A 3.0 nullifier hash or a 4.0 enrolment nullifier (below the SNARK field: the top nibble is 0). */
const nullifierOf = (human: number): string => `0${hexWords(human, 2, 13, 8).slice(1)}`;
const sessionIdOf = (human: number): string => `0${hexWords(human, 3, 17, 8).slice(1)}`;
/** IDKit's OPRF seed: World's session prefix byte 01, then 31 bytes. */
const sessionSeedOf = (human: number): string => `01${hexWords(human, 4, 19, 8).slice(2)}`;
const blockHashOf = (block: number): Hex => (block < 0 ? `0x${"0".repeat(64)}` : `0x${hexWords(block, 5, 23, 8)}`);
const txHashOf = (block: number, index: number): string => `0x${hexWords(block, index, 29, 8)}`;

// ---------------------------------------------------------------- the chain

interface LogSpec {
  address: Address;
  topics: string[];
  data: string;
  txIndex: number;
}

interface MintSpec {
  human: number;
  numOfMints: number;
  v4: boolean;
}

export class SyntheticChain {
  readonly options: SyntheticChainOptions;
  readonly lastBackfillMintBlock: number;
  /** The newest block (grows in live mode). */
  head: number;
  /** Unix seconds of block 0: the head's timestamp is about now. */
  readonly genesisTime: number;
  readonly waitBetweenMints: number;
  /** When each live block was produced (ms, performance.now()). */
  readonly producedAt = new Map<number, number>();
  private liveTimer: NodeJS.Timeout | undefined;
  private readonly setupLogs = new Map<number, LogSpec[]>();

  constructor(options: SyntheticChainOptions) {
    if (options.perBlock > options.humans) throw new Error("perBlock may not exceed humans (a human mints once a block at most)");
    this.options = options;
    this.lastBackfillMintBlock = FIRST_MINT_BLOCK + Math.ceil(options.mints / options.perBlock) - 1;
    this.head = this.lastBackfillMintBlock + options.tail;
    this.genesisTime = Math.floor(Date.now() / 1000) - this.head * options.blockTime;
    // A human mints again one round later: about humans / perBlock blocks. The wait is that (at least a second),
    // so every mint keeps its human's streak going as it would for someone who claims as soon as allowed.
    this.waitBetweenMints = Math.max(1, Math.floor(options.humans / options.perBlock) * options.blockTime);
    this.setupLogs.set(ORO_BLOCK, this.oroConstructorLogs());
    for (const [block, logs] of options.extraLogs ?? []) {
      if (block <= this.lastBackfillMintBlock || block > this.head) throw new Error(`extra logs go in the tail (blocks ${this.lastBackfillMintBlock + 1}–${this.head}), not block ${block}`);
      this.setupLogs.set(block, logs.map((log, txIndex) => ({ address: log.address.toLowerCase() as Address, topics: [...log.topics], data: log.data, txIndex })));
    }
    this.setupLogs.set(CLAIM_BLOCK, [
      { address: CLAIM, topics: encodeEventTopics({ abi: referralClaimAbi, eventName: "OwnershipTransferred", args: { previousOwner: `0x${"0".repeat(40)}`, newOwner: OWNER } }) as string[], data: "0x", txIndex: 0 },
      { address: CLAIM, topics: [topic0("SignerUpdated", referralClaimAbi)], data: encodeAbiParameters([{ type: "address" }, { type: "address" }], [`0x${"0".repeat(40)}`, SIGNER]), txIndex: 0 },
    ]);
  }

  private oroConstructorLogs(): LogSpec[] {
    const zero: Address = `0x${"0".repeat(40)}`;
    const { appId, action } = local.worldId;
    const event = (eventName: string, types: { type: string }[], values: unknown[], args?: Record<string, unknown>): LogSpec => ({
      address: ORO,
      topics: encodeEventTopics({ abi: oroAbi, eventName: eventName as "Transfer", args: args }) as string[],
      data: types.length === 0 ? "0x" : encodeAbiParameters(types, values),
      txIndex: 0,
    });
    return [
      event("OwnershipTransferred", [], [], { previousOwner: zero, newOwner: OWNER }),
      event("AmountPerMintUpdated", [{ type: "uint256" }, { type: "uint256" }], [0n, AMOUNT_PER_MINT]),
      event("WaitBetweenMintsUpdated", [{ type: "uint256" }, { type: "uint256" }], [0n, BigInt(this.waitBetweenMints)]),
      event("ExternalNullifierUpdated", [{ type: "uint256" }, { type: "uint256" }, { type: "string" }, { type: "string" }], [0n, BigInt(`0x00${hexWords(7, 7, 7, 8).slice(2)}`), appId, action]),
      event("WorldIdVerifierUpdated", [{ type: "address" }, { type: "address" }], [zero, local.contracts.WorldIdVerifier.address]),
      event("WorldId4SettingsUpdated", [{ type: "uint64" }, { type: "uint256" }, { type: "string" }, { type: "uint64" }], [31337n, 1n, local.worldId.enrolmentAction, BigInt(local.worldId.genesisCutoff)]),
    ];
  }

  /** Mint indices [start, end) in a block. */
  mintRange(block: number): [number, number] {
    const { mints, perBlock, livePerBlock, tail } = this.options;
    if (block < FIRST_MINT_BLOCK || block > this.head) return [0, 0];
    if (block <= this.lastBackfillMintBlock) {
      const start = (block - FIRST_MINT_BLOCK) * perBlock;
      return [start, Math.min(mints, start + perBlock)];
    }
    const firstLive = this.lastBackfillMintBlock + tail + 1;
    if (block < firstLive) return [0, 0];
    const start = mints + (block - firstLive) * livePerBlock;
    return [start, start + livePerBlock];
  }

  private mintSpec(index: number): MintSpec {
    const human = index % this.options.humans;
    const v4 = this.options.v4Every > 0 && human % this.options.v4Every === this.options.v4Every - 1;
    return { human, numOfMints: Math.floor(index / this.options.humans) + 1, v4 };
  }

  /** The logs a mint's transaction emits, in order, as Oro.sol emits them. */
  private mintLogs(spec: MintSpec, txIndex: number): LogSpec[] {
    const receiver = receiverOf(spec.human);
    const receiverTopic = `0x${"0".repeat(24)}${receiver}`;
    const amount = word(AMOUNT_PER_MINT);
    const transfer: LogSpec = { address: ORO, topics: [T_TRANSFER, `0x${"0".repeat(64)}`, receiverTopic], data: `0x${amount}`, txIndex };
    if (!spec.v4) {
      return [transfer, { address: ORO, topics: [T_MINTED, receiverTopic], data: `0x${nullifierOf(spec.human)}${amount}${word(spec.numOfMints)}`, txIndex }];
    }
    const minted: LogSpec = { address: ORO, topics: [T_MINTED_SESSION, receiverTopic], data: `0x${sessionIdOf(spec.human)}${amount}${word(spec.numOfMints)}`, txIndex };
    if (spec.numOfMints > 1) return [transfer, minted];
    const enrolled: LogSpec = {
      address: ORO,
      topics: [T_ENROLLED, receiverTopic],
      data: `0x${nullifierOf(spec.human)}${sessionIdOf(spec.human)}${sessionSeedOf(spec.human)}${word(0)}`,
      txIndex,
    };
    return [enrolled, transfer, minted];
  }

  /** Every log of a block, in order. */
  blockLogs(block: number): LogSpec[] {
    const setup = this.setupLogs.get(block);
    if (setup) return setup;
    const [start, end] = this.mintRange(block);
    const logs: LogSpec[] = [];
    for (let index = start; index < end; index++) logs.push(...this.mintLogs(this.mintSpec(index), index - start));
    return logs;
  }

  transactionCount(block: number): number {
    const setup = this.setupLogs.get(block);
    if (setup) return Math.max(1, ...setup.map((log) => log.txIndex + 1));
    const [start, end] = this.mintRange(block);
    return end - start;
  }

  /** Logs Ponder handles (every event with a handler) in the mints [0, mints): 2 a mint, 3 for an enrolment. */
  handledEventsForMints(mints: number): number {
    const { humans, v4Every } = this.options;
    const firstRound = Math.min(humans, mints);
    const enrolments = v4Every > 0 ? Math.floor(firstRound / v4Every) : 0;
    // Constructor: OwnershipTransferred, AmountPerMintUpdated, WaitBetweenMintsUpdated, ExternalNullifierUpdated;
    // ReferralClaim: SignerUpdated (its OwnershipTransferred has no handler).
    return 5 + 2 * mints + enrolments;
  }

  humansForMints(mints: number): number {
    return Math.min(this.options.humans, mints);
  }

  timestampOf(block: number): number {
    return this.genesisTime + block * this.options.blockTime;
  }

  // ---------------------------------------------------------------- JSON

  private logJson(block: number, hash: Hex, log: LogSpec, logIndex: number): string {
    return `{"address":"${log.address}","topics":["${log.topics.join('","')}"],"data":"${log.data}","blockNumber":"${hexNum(block)}","blockHash":"${hash}","transactionHash":"${txHashOf(block, log.txIndex)}","transactionIndex":"${hexNum(log.txIndex)}","logIndex":"${hexNum(logIndex)}","removed":false}`;
  }

  private transactionJson(block: number, hash: Hex, txIndex: number): string {
    const [start] = this.mintRange(block);
    let from: string = OWNER;
    // The setup blocks hold the contracts' creations (to: null).
    let to = "null";
    let input = "0x";
    if (!this.setupLogs.has(block)) {
      to = `"${ORO}"`;
      const spec = this.mintSpec(start + txIndex);
      const receiver = receiverOf(spec.human);
      from = `0x${receiver}`;
      // mint(root, nullifierHash, proof[8], receiver): 4 + 11 × 32 bytes.
      input = `0x${MINT_SELECTOR}${hexWords(block, txIndex, 31, 8)}${nullifierOf(spec.human)}${hexWords(block, txIndex, 37, 64)}${"0".repeat(24)}${receiver}`;
    }
    return `{"type":"0x2","chainId":"0x7a69","hash":"${txHashOf(block, txIndex)}","nonce":"${hexNum(block)}","blockHash":"${hash}","blockNumber":"${hexNum(block)}","transactionIndex":"${hexNum(txIndex)}","from":"${from}","to":${to},"value":"0x0","gas":"0x1d4c0","gasPrice":"0x3b9aca01","maxFeePerGas":"0x3b9aca0a","maxPriorityFeePerGas":"0x1","input":"${input}","accessList":[],"v":"0x0","yParity":"0x0","r":"0x${hexWords(block, txIndex, 41, 8)}","s":"0x${hexWords(block, txIndex, 43, 8)}"}`;
  }

  blockJson(block: number, full: boolean): string {
    if (block < 0 || block > this.head) return "null";
    const hash = blockHashOf(block);
    const count = this.transactionCount(block);
    const transactions: string[] = [];
    for (let i = 0; i < count; i++) transactions.push(full ? this.transactionJson(block, hash, i) : `"${txHashOf(block, i)}"`);
    // A block with logs gets an all-ones bloom (a bloom may only err towards "maybe"), an empty one the zero bloom.
    const bloom = count > 0 ? "f".repeat(512) : "0".repeat(512);
    return `{"number":"${hexNum(block)}","hash":"${hash}","parentHash":"${blockHashOf(block - 1)}","nonce":"0x0000000000000000","mixHash":"0x${"0".repeat(64)}","sha3Uncles":"0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347","logsBloom":"0x${bloom}","transactionsRoot":"0x${hexWords(block, 6, 47, 8)}","stateRoot":"0x${hexWords(block, 7, 53, 8)}","receiptsRoot":"0x${hexWords(block, 8, 59, 8)}","miner":"0x${"0".repeat(40)}","difficulty":"0x0","totalDifficulty":"0x0","extraData":"0x","size":"${hexNum(1_000 + count * 500)}","gasLimit":"0x1c9c380","gasUsed":"${hexNum(count * 85_000)}","timestamp":"${hexNum(this.timestampOf(block))}","baseFeePerGas":"0x3b9aca00","uncles":[],"transactions":[${transactions.join(",")}]}`;
  }

  /** The logs of blocks [from, to] that match an eth_getLogs filter, as JSON. */
  logsJson(from: number, to: number, address: string[] | undefined, topics: (string | string[] | null)[] | undefined): { json: string; count: number } {
    const parts: string[] = [];
    const wanted = address?.map((a) => a.toLowerCase());
    const topicSets = topics?.map((t) => (t === null ? null : new Set((Array.isArray(t) ? t : [t]).map((x) => x.toLowerCase()))));
    for (let block = Math.max(0, from); block <= Math.min(to, this.head); block++) {
      const logs = this.blockLogs(block);
      if (logs.length === 0) continue;
      const hash = blockHashOf(block);
      logs.forEach((log, logIndex) => {
        if (wanted && !wanted.includes(log.address)) return;
        if (topicSets && topicSets.some((set, i) => set !== null && (log.topics[i] === undefined || !set.has(log.topics[i])))) return;
        parts.push(this.logJson(block, hash, log, logIndex));
      });
    }
    return { json: `[${parts.join(",")}]`, count: parts.length };
  }

  blockNumberOfHash(hash: string): number | undefined {
    // Hashes are a function of the number; live chains are short enough to search from the head down.
    for (let block = this.head; block >= 0 && block >= this.head - 100_000; block--) if (blockHashOf(block) === hash.toLowerCase()) return block;
    return undefined;
  }

  receiptsJson(block: number): string {
    const hash = blockHashOf(block);
    const logs = this.blockLogs(block);
    const count = this.transactionCount(block);
    const receipts: string[] = [];
    for (let i = 0; i < count; i++) {
      const own = logs.map((log, index) => ({ log, index })).filter(({ log }) => log.txIndex === i);
      receipts.push(
        `{"transactionHash":"${txHashOf(block, i)}","transactionIndex":"${hexNum(i)}","blockHash":"${hash}","blockNumber":"${hexNum(block)}","from":"${OWNER}","to":"${ORO}","cumulativeGasUsed":"${hexNum((i + 1) * 85_000)}","gasUsed":"0x14c08","effectiveGasPrice":"0x3b9aca01","contractAddress":null,"logs":[${own.map(({ log, index }) => this.logJson(block, hash, log, index)).join(",")}],"logsBloom":"0x${"f".repeat(512)}","status":"0x1","type":"0x2"}`,
      );
    }
    return `[${receipts.join(",")}]`;
  }

  /** Checks a sample of the hand-built logs against viem's encoding and decoding of the ABI (throws on a difference). */
  selfCheck(): void {
    const sample = [0, 1, Math.max(0, this.options.v4Every - 1), this.options.humans + Math.max(0, this.options.v4Every - 1)].filter((i) => i < Math.max(this.options.mints, 1));
    for (const index of sample) {
      const spec = this.mintSpec(index);
      const logs = this.mintLogs(spec, 0);
      const receiver = `0x${receiverOf(spec.human)}`;
      const expected: { eventName: string; args: Record<string, unknown> }[] = [];
      if (spec.v4 && spec.numOfMints === 1) {
        expected.push({ eventName: "WorldId4Enrolled", args: { receiver, human: BigInt(`0x${nullifierOf(spec.human)}`), sessionId: BigInt(`0x${sessionIdOf(spec.human)}`), sessionSeed: BigInt(`0x${sessionSeedOf(spec.human)}`), movedFrom: 0n } });
      }
      expected.push({ eventName: "Transfer", args: { from: `0x${"0".repeat(40)}`, to: receiver, value: AMOUNT_PER_MINT } });
      expected.push(
        spec.v4
          ? { eventName: "MintedWithSession", args: { receiver, sessionId: BigInt(`0x${sessionIdOf(spec.human)}`), amount: AMOUNT_PER_MINT, numOfMints: BigInt(spec.numOfMints) } }
          : { eventName: "Minted", args: { receiver, nullifierHash: BigInt(`0x${nullifierOf(spec.human)}`), amount: AMOUNT_PER_MINT, numOfMints: BigInt(spec.numOfMints) } },
      );
      if (logs.length !== expected.length) throw new Error(`mint ${index}: ${logs.length} logs, expected ${expected.length}`);
      logs.forEach((log, i) => {
        const want = expected[i];
        if (!want) return;
        const item = getAbiItem({ abi: oroAbi, name: want.eventName as "Transfer" }) as { inputs: readonly { name: string; type: string; indexed?: boolean }[] };
        const topics = encodeEventTopics({ abi: oroAbi, eventName: want.eventName as "Transfer", args: want.args });
        const data = encodeAbiParameters(item.inputs.filter((input) => !input.indexed), item.inputs.filter((input) => !input.indexed).map((input) => want.args[input.name]) as never);
        if (topics.join() !== log.topics.join() || data !== log.data) throw new Error(`mint ${index}: ${want.eventName} differs from viem's encoding`);
        const decoded = decodeEventLog({ abi: oroAbi, topics: log.topics as [Hex], data: log.data });
        if (decoded.eventName !== want.eventName) throw new Error(`mint ${index}: decodes as ${decoded.eventName}`);
      });
    }
  }

  startLive(onBlock?: (block: number) => void): void {
    this.liveTimer = setInterval(() => {
      this.head += 1;
      this.producedAt.set(this.head, performance.now());
      onBlock?.(this.head);
    }, this.options.liveIntervalMs);
  }

  stopLive(): void {
    if (this.liveTimer) clearInterval(this.liveTimer);
    this.liveTimer = undefined;
  }
}

// ---------------------------------------------------------------- the JSON-RPC server

export interface RpcStats {
  requests: Map<string, { count: number; ms: number; bytes: number }>;
  unanswered: Map<string, number>;
  oversizedLogResponses: number;
}

export interface SyntheticRpcServer {
  url: string;
  stats: RpcStats;
  close(): Promise<void>;
}

/** Answers one JSON-RPC call; the result as JSON text. */
function answer(chain: SyntheticChain, method: string, params: unknown[], stats: RpcStats): { result?: string; error?: { code: number; message: string } } {
  const blockParam = (tag: unknown): number => {
    if (tag === "latest" || tag === "pending" || tag === "safe" || tag === "finalized" || tag === undefined) return chain.head;
    if (tag === "earliest") return 0;
    return Number(tag);
  };
  switch (method) {
    case "eth_chainId":
      return { result: `"0x7a69"` };
    case "net_version":
      return { result: `"31337"` };
    case "eth_blockNumber":
      return { result: `"${hexNum(chain.head)}"` };
    case "eth_getBlockByNumber":
      return { result: chain.blockJson(blockParam(params[0]), params[1] === true) };
    case "eth_getBlockByHash": {
      const block = chain.blockNumberOfHash(String(params[0]));
      return { result: block === undefined ? "null" : chain.blockJson(block, params[1] === true) };
    }
    case "eth_getLogs": {
      const filter = (params[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string; address?: string | string[]; topics?: (string | string[] | null)[] };
      let from: number;
      let to: number;
      if (filter.blockHash) {
        const block = chain.blockNumberOfHash(filter.blockHash);
        if (block === undefined) return { error: { code: -32000, message: "unknown block" } };
        from = to = block;
      } else {
        from = blockParam(filter.fromBlock ?? "latest");
        to = blockParam(filter.toBlock ?? "latest");
      }
      const address = filter.address === undefined ? undefined : Array.isArray(filter.address) ? filter.address : [filter.address];
      const { json, count } = chain.logsJson(from, to, address, filter.topics);
      if (count > 10_000) stats.oversizedLogResponses += 1;
      return { result: json };
    }
    case "eth_getTransactionReceipt": {
      const hash = String(params[0]).toLowerCase();
      for (let block = chain.head; block >= 0 && block >= chain.head - 5_000; block--) {
        const count = chain.transactionCount(block);
        for (let i = 0; i < count; i++) {
          if (txHashOf(block, i) === hash) return { result: JSON.stringify((JSON.parse(chain.receiptsJson(block)) as unknown[])[i]) };
        }
      }
      return { result: "null" };
    }
    case "eth_getBlockReceipts":
      return { result: chain.receiptsJson(blockParam(params[0])) };
    case "eth_getCode":
      return { result: String(params[0]).toLowerCase() === ORO || String(params[0]).toLowerCase() === CLAIM ? `"0x6080"` : `"0x"` };
    default:
      stats.unanswered.set(method, (stats.unanswered.get(method) ?? 0) + 1);
      return { error: { code: -32601, message: `the bench's chain source does not serve ${method}` } };
  }
}

export async function startSyntheticRpc(chain: SyntheticChain): Promise<SyntheticRpcServer> {
  const stats: RpcStats = { requests: new Map(), unanswered: new Map(), oversizedLogResponses: 0 };
  const handleOne = (call: { id?: unknown; method: string; params?: unknown[] }): string => {
    const started = performance.now();
    let body: string;
    try {
      const { result, error } = answer(chain, call.method, call.params ?? [], stats);
      body = error
        ? `{"jsonrpc":"2.0","id":${JSON.stringify(call.id ?? null)},"error":${JSON.stringify(error)}}`
        : `{"jsonrpc":"2.0","id":${JSON.stringify(call.id ?? null)},"result":${result}}`;
    } catch (error) {
      body = `{"jsonrpc":"2.0","id":${JSON.stringify(call.id ?? null)},"error":${JSON.stringify({ code: -32603, message: String(error) })}}`;
    }
    const entry = stats.requests.get(call.method) ?? { count: 0, ms: 0, bytes: 0 };
    entry.count += 1;
    entry.ms += performance.now() - started;
    entry.bytes += body.length;
    stats.requests.set(call.method, entry);
    return body;
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let body: string;
      try {
        const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
        body = Array.isArray(parsed)
          ? `[${(parsed as { method: string }[]).map(handleOne).join(",")}]`
          : handleOne(parsed as { method: string });
      } catch {
        body = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
