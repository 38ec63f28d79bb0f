import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getAddress, toHex, zeroAddress, type AbiEvent, type Address } from "viem";
import { oroAbi, referralClaimAbi } from "@oro/clients";
import { account, anomaly, human, mint, referralPayout, stats, worldId4Human, worldIdSession } from "../../ponder.schema";
import { ANOMALY_KINDS } from "../../src/lib/anomalies";
import { INT4_MAX, UINT256_MAX } from "../../src/lib/event-values";
import { indexingFunctions } from "../support/ponder-registry";
import { StrictStore, type Row } from "../support/strict-store";

// The real handlers (vitest.config.ts gives them a `ponder:registry` that keeps them) against a store that refuses what
// PostgreSQL refuses when Ponder flushes (test/support/strict-store.ts): any value of each event's ABI types, in any
// order, must be indexed without a throw — a throw stops the indexer at that block on every restart.
beforeAll(async () => {
  // Each anomaly is also a log line; thousands of generated ones would bury the test's output.
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
  await import("../../src/handlers/Oro");
  await import("../../src/handlers/ReferralClaim");
});

const CHAIN_ID = 31337;
const abis = { Oro: oroAbi, ReferralClaim: referralClaimAbi } as const;

/** The ABI of a handler's event ("Oro:Transfer"). */
function abiEventOf(name: string): AbiEvent {
  const [contract, eventName] = name.split(":") as [keyof typeof abis, string];
  const item = (abis[contract] as readonly { type: string; name?: string }[]).find((entry) => entry.type === "event" && entry.name === eventName);
  if (!item) throw new Error(`no ABI event for the handler ${name}`);
  return item as AbiEvent;
}

// Values are drawn from small pools as often as from the whole range, so that events meet each other: a session
// minted with after (or without) its enrolment, a nonce paid twice, a balance spent twice.
const POOL_ADDRESSES: Address[] = [zeroAddress, getAddress("0x00000000000000000000000000000000000a11ce"), getAddress("0x70997970c51812dc3a010c7d01b50e0d17dc79c8")];
const OPRF_SEED = BigInt(`0x01${"ab".repeat(31)}`);
const EDGE_UINTS = [0n, 1n, 2n, BigInt(INT4_MAX), BigInt(INT4_MAX) + 1n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 63n, OPRF_SEED, UINT256_MAX];

function uintOf(bits: number): fc.Arbitrary<bigint> {
  const max = 2n ** BigInt(bits) - 1n;
  return fc.oneof(
    fc.constantFrom(...EDGE_UINTS.filter((value) => value <= max)),
    fc.bigInt({ min: 0n, max: 3n }),
    fc.bigInt({ min: 0n, max }),
  );
}

const addressArbitrary = fc.oneof(fc.constantFrom(...POOL_ADDRESSES), fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => getAddress(toHex(bytes))));
const stringArbitrary = fc.oneof(fc.string(), fc.constantFrom("", "\u0000", "oro\u0000action", "claim-tokens-action"), fc.string({ unit: "grapheme" }));

function valueOf(type: string): fc.Arbitrary<unknown> {
  if (type === "address") return addressArbitrary;
  if (type === "string") return stringArbitrary;
  if (type === "bool") return fc.boolean();
  const uint = /^uint(\d+)$/.exec(type);
  if (uint) return uintOf(Number(uint[1]));
  throw new Error(`no generator for the ABI type ${type}: add one`);
}

interface GeneratedEvent {
  name: string;
  args: Record<string, unknown>;
  secondsLater: number;
}

const handledEvents = () => [...indexingFunctions.keys()].sort();

function eventArbitrary(): fc.Arbitrary<GeneratedEvent> {
  return fc.oneof(
    ...handledEvents().map((name) => {
      const inputs = abiEventOf(name).inputs;
      return fc.record({
        name: fc.constant(name),
        args: fc.record(Object.fromEntries(inputs.map((input) => [input.name ?? "", valueOf(input.type)]))),
        secondsLater: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 200_000 })),
      });
    }),
  );
}

/** Runs events through the real handlers, as Ponder does: in order, one block each, ids sorting as the chain does. */
async function index(events: GeneratedEvent[], store = new StrictStore()): Promise<StrictStore> {
  let timestamp = 1_780_000_000;
  for (const [i, generated] of events.entries()) {
    const indexingFunction = indexingFunctions.get(generated.name);
    if (!indexingFunction) throw new Error(`no handler for ${generated.name}`);
    timestamp += generated.secondsLater;
    const block = 100 + i;
    const event = {
      id: `${timestamp}${String(block).padStart(16, "0")}0000`,
      args: generated.args,
      block: { number: BigInt(block), timestamp: BigInt(timestamp) },
      log: { logIndex: 0 },
      transaction: { hash: toHex(block, { size: 32 }) },
    };
    await indexingFunction({ event, context: { db: store.db, chain: { id: CHAIN_ID } } });
  }
  return store;
}

const statsOf = (store: StrictStore): Row | undefined => store.rows(stats)[0];

describe("every handler accepts any value of its event's ABI types", () => {
  it("has a generator for every handled event (a new handler is covered, or this fails)", () => {
    expect(handledEvents()).toEqual(expect.arrayContaining(["Oro:Minted", "Oro:MintedWithSession", "Oro:WorldId4Enrolled", "ReferralClaim:VoucherClaimed"]));
    for (const name of handledEvents()) expect(() => eventArbitrary().filter((event) => event.name === name)).not.toThrow();
  });

  it("indexes any sequence of them without a throw, every value within its column's range, and keeps its totals true", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArbitrary(), { minLength: 1, maxLength: 40 }), async (events) => {
        const store = await index(events);
        const totals = statsOf(store);
        expect(totals).toBeDefined();
        // The totals are counts of rows, whatever came: no handler counted something it did not store.
        expect(totals?.mints).toBe(store.rows(mint).length);
        expect(totals?.anomalies).toBe(store.rows(anomaly).length);
        expect(totals?.referralPayouts).toBe(store.rows(referralPayout).length);
        expect(totals?.holders).toBe(store.rows(account).filter((row) => (row.balance as bigint) > 0n).length);
        for (const row of store.rows(anomaly)) expect(ANOMALY_KINDS).toContain(row.kind);
        // One session per human: a human's state lives in one place; every session has its state row.
        const linked = store.rows(human).map((row) => row.worldId4SessionId).filter((id) => id !== null);
        expect(new Set(linked).size).toBe(linked.length);
        expect(store.rows(worldId4Human).map((row) => row.sessionId)).toEqual(store.rows(worldIdSession).map((row) => row.sessionId));
      }),
      { numRuns: 300 },
    );
  });

  it("records each unreadable thing as an anomaly and goes on: the found attack's seed 0, an orphan mint, a nonce paid twice, out-of-range numbers", async () => {
    const [alice, bob] = [POOL_ADDRESSES[1], POOL_ADDRESSES[2]] as [Address, Address];
    const store = await index([
      { name: "Oro:WaitBetweenMintsUpdated", args: { oldWaitBetweenMints: 0n, newWaitBetweenMints: UINT256_MAX }, secondsLater: 0 },
      { name: "Oro:WorldId4Enrolled", args: { receiver: alice, human: 5n, sessionId: 9n, sessionSeed: 0n, movedFrom: 0n }, secondsLater: 1 },
      { name: "Oro:MintedWithSession", args: { receiver: bob, sessionId: 10n, amount: 1n, numOfMints: 1n }, secondsLater: 1 },
      { name: "Oro:MintedWithSession", args: { receiver: alice, sessionId: 9n, amount: 1n, numOfMints: UINT256_MAX }, secondsLater: 1 },
      { name: "ReferralClaim:VoucherClaimed", args: { account: alice, nonce: 7n, amount: UINT256_MAX, submitter: bob }, secondsLater: 1 },
      { name: "ReferralClaim:VoucherClaimed", args: { account: bob, nonce: 7n, amount: 1n, submitter: bob }, secondsLater: 1 },
      { name: "Oro:ExternalNullifierUpdated", args: { oldExternalNullifierHash: 0n, newExternalNullifierHash: 1n, appId: "app\u0000", action: "a" }, secondsLater: 1 },
      { name: "Oro:Minted", args: { receiver: zeroAddress, nullifierHash: 3n, amount: 1n, numOfMints: 1n }, secondsLater: 1 },
    ]);
    expect(store.rows(anomaly).map((row) => [row.event, row.kind])).toEqual([
      ["Oro:WaitBetweenMintsUpdated", "value_out_of_range"],
      ["Oro:WorldId4Enrolled", "unreadable_session_seed"],
      ["Oro:MintedWithSession", "orphan_mint"],
      ["Oro:MintedWithSession", "value_out_of_range"],
      ["ReferralClaim:VoucherClaimed", "voucher_paid_twice"],
      ["Oro:ExternalNullifierUpdated", "text_with_nul"],
      ["Oro:Minted", "zero_address"],
    ]);
    // The session with seed 0 is stored, unusable, and its human's mints still count.
    const [session] = store.rows(worldIdSession);
    expect(session).toMatchObject({ sessionId: 9n, idkitSessionId: null });
    expect(session?.problem).toMatch(/seed/);
    expect(store.rows(worldId4Human)).toMatchObject([{ sessionId: 9n, numOfMints: 1 }]);
    expect(store.rows(mint).map((row) => row.nullifierHash)).toEqual([toHex(5n, { size: 32 }), toHex(3n, { size: 32 })]);
    expect(store.rows(referralPayout)).toMatchObject([{ nonce: 7n, account: alice.toLowerCase() }]);
    expect(statsOf(store)).toMatchObject({ mints: 2, humans: 2, referralPayouts: 1, referralPaidOut: UINT256_MAX, anomalies: 7 });
  });
});

describe("an honest chain records no anomaly", () => {
  it("3.0 humans, 4.0 humans and movers minting, transferring and being paid vouchers, in any interleaving", async () => {
    const humanArbitrary = fc.record({ kind: fc.constantFrom("3.0", "4.0", "mover"), mints: fc.integer({ min: 1, max: 4 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(humanArbitrary, { minLength: 1, maxLength: 6 }), fc.infiniteStream(fc.nat()), async (humans, choices) => {
        const events: GeneratedEvent[] = [
          { name: "Oro:WaitBetweenMintsUpdated", args: { oldWaitBetweenMints: 0n, newWaitBetweenMints: 86_400n }, secondsLater: 0 },
          { name: "Oro:AmountPerMintUpdated", args: { oldAmountPerMint: 0n, newAmountPerMint: 10n ** 18n }, secondsLater: 0 },
        ];
        // Each human's own events in order; the humans' turns interleave as the stream says.
        const queues = humans.map(({ kind, mints }, i) => {
          const receiver = getAddress(toHex(1_000 + i, { size: 20 }));
          const nullifier = BigInt(1_000 + i);
          const sessionId = BigInt(2_000 + i);
          const own: GeneratedEvent[] = [];
          const transfer = { name: "Oro:Transfer", args: { from: zeroAddress, to: receiver, value: 10n ** 18n }, secondsLater: 0 };
          const minted3 = (n: number) => ({ name: "Oro:Minted", args: { receiver, nullifierHash: nullifier, amount: 10n ** 18n, numOfMints: BigInt(n) }, secondsLater: 86_400 });
          const mintedSession = (n: number) => ({ name: "Oro:MintedWithSession", args: { receiver, sessionId, amount: 10n ** 18n, numOfMints: BigInt(n) }, secondsLater: 86_400 });
          const enrolled = (movedFrom: bigint) => ({ name: "Oro:WorldId4Enrolled", args: { receiver, human: BigInt(3_000 + i), sessionId, sessionSeed: OPRF_SEED, movedFrom }, secondsLater: 60 });
          if (kind === "3.0") for (let n = 1; n <= mints; n++) own.push(transfer, minted3(n));
          if (kind === "4.0") {
            own.push(enrolled(0n));
            for (let n = 1; n <= mints; n++) own.push(transfer, mintedSession(n));
          }
          if (kind === "mover") {
            own.push(transfer, minted3(1), enrolled(nullifier));
            for (let n = 2; n <= mints + 1; n++) own.push(transfer, mintedSession(n));
          }
          own.push({ name: "ReferralClaim:VoucherClaimed", args: { account: receiver, nonce: BigInt(i), amount: 5n, submitter: receiver }, secondsLater: 10 });
          return own;
        });
        const iterator = choices[Symbol.iterator]();
        for (let open = queues.filter((queue) => queue.length > 0); open.length > 0; open = queues.filter((queue) => queue.length > 0)) {
          const queue = open[(iterator.next().value ?? 0) % open.length];
          const next = queue?.shift();
          if (next) events.push(next);
        }
        const store = await index(events);
        expect(store.rows(anomaly)).toEqual([]);
        expect(statsOf(store)).toMatchObject({ humans: humans.length, mints: humans.reduce((sum, { kind, mints }) => sum + mints + (kind === "mover" ? 1 : 0), 0) });
        // One human, one key: a mover's mints all carry their 3.0 nullifier hash, a 4.0 human's their enrolment nullifier.
        const keys = new Set(store.rows(mint).map((row) => row.nullifierHash));
        expect(keys.size).toBe(humans.length);
      }),
      { numRuns: 100 },
    );
  });
});
