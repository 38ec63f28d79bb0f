import { ponder } from "ponder:registry";
import { account, human, mint, settingChange, worldIdSession } from "ponder:schema";
import { idkitSessionIdOf } from "@oro/clients";
import { zeroAddress, type Address } from "viem";
import { balanceChanges, holderDelta, supplyDelta } from "../lib/balances";
import { nullifierHashToHex } from "../lib/request-params";
import { streakAfterMint, type StreakAtMint } from "../lib/streak";
import { currentSettings, updateSettings, updateStats } from "./store";

const lower = (address: Address) => address.toLowerCase() as Address;

// Rows are looked up by the event's own values (the checksummed addresses as decoded, which Ponder's hex columns
// store lower-cased): Ponder then predicts the lookups and loads the rows in batches once a table no longer fits
// its cache. A key derived from the event (lower-cased, hex of a uint256) goes to the database one row at a time.

ponder.on("Oro:Transfer", async ({ event, context }) => {
  const { db } = context;
  const transfer = { from: event.args.from, to: event.args.to, value: event.args.value };
  const balances = new Map<Address, bigint>();
  for (const address of new Set([transfer.from, transfer.to])) {
    if (address === zeroAddress) continue;
    const row = await db.find(account, { address });
    balances.set(address, row?.balance ?? 0n);
  }
  const changes = balanceChanges(transfer, (address) => balances.get(address) ?? 0n);
  let holders = 0;
  for (const change of changes) {
    holders += holderDelta(change);
    await db
      .insert(account)
      .values({ address: change.account, balance: change.after, mintsReceived: 0 })
      .onConflictDoUpdate({ balance: change.after });
  }
  const supply = supplyDelta(transfer);
  await updateStats(db, context.chain.id, Number(event.block.timestamp), (current) => ({
    holders: current.holders + holders,
    totalSupply: current.totalSupply + supply,
  }));
});

type MintEvent = Parameters<Parameters<typeof ponder.on<"Oro:Minted">>[1]>[0]["event"];
type OroContext = Parameters<Parameters<typeof ponder.on<"Oro:Minted">>[1]>[0]["context"];

/** A human's state as of their latest mint: a `human` row's columns, or a World ID 4.0 session's. */
interface HumanState extends StreakAtMint {
  numOfMints: number;
  firstMintedAt: number;
  lastReceiver: Address;
}

/** The state a World ID 4.0 session holds for its human (undefined until they have minted). */
function sessionHumanState(session: typeof worldIdSession.$inferSelect): HumanState | undefined {
  const { numOfMints, firstMintedAt, lastMintedAt, currentStreak, longestStreak, lastReceiver } = session;
  if (firstMintedAt === null || lastMintedAt === null || lastReceiver === null) return undefined;
  return { numOfMints, firstMintedAt, lastMintedAt, currentStreak, longestStreak, lastReceiver };
}

/**
 * One mint of a human (by human key, the uint256), whichever World ID version proved it: wallet, mint row, totals.
 * Returns the human's new state, which the caller stores where that human's state lives (`human`, or their session).
 * `receiver` is the event's own (checksummed) value, see above.
 */
async function recordMint(
  event: Pick<MintEvent, "id" | "block" | "log" | "transaction">,
  context: OroContext,
  minted: { human: bigint; receiver: Address; amount: bigint; numOfMints: number },
  previous: HumanState | undefined,
): Promise<HumanState> {
  const { db } = context;
  const mintedAt = Number(event.block.timestamp);
  const nullifierHash = nullifierHashToHex(minted.human);
  const receiver = lower(minted.receiver);
  const { numOfMints } = minted;
  const { waitBetweenMints } = await currentSettings(db, context.chain.id);
  const streak = streakAfterMint(previous, mintedAt, waitBetweenMints);

  // The Transfer of this mint comes first in the same transaction, so the account usually exists already.
  await db
    .insert(account)
    .values({
      address: minted.receiver,
      balance: 0n,
      mintsReceived: 1,
      firstMintAt: mintedAt,
      lastMintAt: mintedAt,
      firstMintNullifierHash: nullifierHash,
    })
    .onConflictDoUpdate((row) => ({
      mintsReceived: row.mintsReceived + 1,
      firstMintAt: row.firstMintAt ?? mintedAt,
      lastMintAt: mintedAt,
      firstMintNullifierHash: row.firstMintNullifierHash ?? nullifierHash,
    }));

  await db.insert(mint).values({
    id: event.id,
    receiver,
    nullifierHash,
    amount: minted.amount,
    numOfMints,
    streak: streak.currentStreak,
    blockNumber: Number(event.block.number),
    logIndex: event.log.logIndex,
    timestamp: mintedAt,
    transactionHash: event.transaction.hash,
  });

  await updateStats(db, context.chain.id, mintedAt, (current) => ({
    mints: current.mints + 1,
    humans: current.humans + (previous ? 0 : 1),
  }));
  return { ...streak, numOfMints, firstMintedAt: previous?.firstMintedAt ?? mintedAt, lastReceiver: receiver };
}

ponder.on("Oro:Minted", async ({ event, context }) => {
  const key = { nullifierHash: event.args.nullifierHash };
  const previous = await context.db.find(human, key);
  const state = await recordMint(
    event,
    context,
    { human: event.args.nullifierHash, receiver: event.args.receiver, amount: event.args.amount, numOfMints: Number(event.args.numOfMints) },
    previous ?? undefined,
  );
  if (previous) await context.db.update(human, key).set(state);
  else await context.db.insert(human).values({ ...key, ...state });
});

// World ID 4.0: the enrolment names the session's human (always before its first MintedWithSession).
ponder.on("Oro:WorldId4Enrolled", async ({ event, context }) => {
  const moved = event.args.movedFrom !== 0n;
  const movedFrom = moved ? nullifierHashToHex(event.args.movedFrom) : null;
  const enrolmentNullifier = nullifierHashToHex(event.args.human);
  // A human who moved brings their 3.0 state (their row, if they ever minted), which their session carries on. Once per
  // human: a moved human's 3.0 path is closed, so their `human` row never changes again.
  const history = moved ? await context.db.find(human, { nullifierHash: event.args.movedFrom }) : null;
  await context.db.insert(worldIdSession).values({
    sessionId: event.args.sessionId,
    idkitSessionId: idkitSessionIdOf(event.args.sessionId, event.args.sessionSeed),
    human: movedFrom ?? enrolmentNullifier,
    enrolmentNullifier,
    movedFrom,
    receiver: lower(event.args.receiver),
    enrolledAt: Number(event.block.timestamp),
    blockNumber: Number(event.block.number),
    numOfMints: history?.numOfMints ?? 0,
    firstMintedAt: history?.firstMintedAt ?? null,
    lastMintedAt: history?.lastMintedAt ?? null,
    currentStreak: history?.currentStreak ?? 0,
    longestStreak: history?.longestStreak ?? 0,
    lastReceiver: history?.lastReceiver ?? null,
  });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});

ponder.on("Oro:MintedWithSession", async ({ event, context }) => {
  // Looked up by the event's own value, which Ponder's prefetch recognises (ponder.schema.ts). The human's state is on
  // this row too, so a session mint reads nothing else.
  const key = { sessionId: event.args.sessionId };
  const session = await context.db.find(worldIdSession, key);
  if (!session) {
    throw new Error(`MintedWithSession for session ${nullifierHashToHex(event.args.sessionId)}, which no WorldId4Enrolled named`);
  }
  const state = await recordMint(
    event,
    context,
    { human: BigInt(session.human), receiver: event.args.receiver, amount: event.args.amount, numOfMints: Number(event.args.numOfMints) },
    sessionHumanState(session),
  );
  await context.db.update(worldIdSession, key).set(state);
});

ponder.on("Oro:AmountPerMintUpdated", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { amountPerMint: event.args.newAmountPerMint });
  await context.db.insert(settingChange).values({
    id: event.id,
    setting: "amount_per_mint",
    oldValue: event.args.oldAmountPerMint,
    newValue: event.args.newAmountPerMint,
    blockNumber: Number(event.block.number),
    timestamp: Number(event.block.timestamp),
    transactionHash: event.transaction.hash,
  });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});

ponder.on("Oro:WaitBetweenMintsUpdated", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { waitBetweenMints: Number(event.args.newWaitBetweenMints) });
  await context.db.insert(settingChange).values({
    id: event.id,
    setting: "wait_between_mints",
    oldValue: event.args.oldWaitBetweenMints,
    newValue: event.args.newWaitBetweenMints,
    blockNumber: Number(event.block.number),
    timestamp: Number(event.block.timestamp),
    transactionHash: event.transaction.hash,
  });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});

ponder.on("Oro:ExternalNullifierUpdated", async ({ event, context }) => {
  const { newExternalNullifierHash, oldExternalNullifierHash, appId, action } = event.args;
  await updateSettings(context.db, context.chain.id, { externalNullifierHash: newExternalNullifierHash, appId, action });
  await context.db.insert(settingChange).values({
    id: event.id,
    setting: "external_nullifier",
    oldValue: oldExternalNullifierHash,
    newValue: newExternalNullifierHash,
    blockNumber: Number(event.block.number),
    timestamp: Number(event.block.timestamp),
    transactionHash: event.transaction.hash,
  });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});

ponder.on("Oro:Killswitched", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { killed: true });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});

ponder.on("Oro:OwnershipTransferred", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { owner: lower(event.args.newOwner) });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});
