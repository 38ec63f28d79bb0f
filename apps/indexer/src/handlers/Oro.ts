import { ponder } from "ponder:registry";
import { account, human, mint, settingChange, worldId4Human, worldIdSession } from "ponder:schema";
import { zeroAddress, type Address } from "viem";
import { anomalyCollector, type NoteAnomaly } from "../lib/anomalies";
import { balanceChanges, holderDelta, supplyDelta } from "../lib/balances";
import { boundedAmount, countFromEvent, idkitSessionIdFromEvent, INT4_MAX, secondsFromEvent, textFromEvent } from "../lib/event-values";
import { nullifierHashToHex } from "../lib/request-params";
import { streakAfterMint, type StreakAtMint } from "../lib/streak";
import { currentSettings, recordAnomalies, updateSettings, updateStats } from "./store";

const lower = (address: Address) => address.toLowerCase() as Address;

// Rows are looked up by the event's own values (the checksummed addresses as decoded, which Ponder's hex columns
// store lower-cased): Ponder then predicts the lookups and loads the rows in batches once a table no longer fits
// its cache. A key derived from the event (lower-cased, hex of a uint256) goes to the database one row at a time.
//
// No handler throws on an event's values: a throw stops the indexer at that block on every restart. What a handler
// cannot read as the contracts mean it is stored as far as it can be and recorded in `anomaly` (src/lib/anomalies.ts).

ponder.on("Oro:Transfer", async ({ event, context }) => {
  const { db } = context;
  const { note, anomalies } = anomalyCollector();
  const transfer = { from: event.args.from, to: event.args.to, value: event.args.value };
  const balances = new Map<Address, bigint>();
  for (const address of new Set([transfer.from, transfer.to])) {
    if (address === zeroAddress) continue;
    const row = await db.find(account, { address });
    balances.set(address, row?.balance ?? 0n);
  }
  const changes = balanceChanges(transfer, (address) => balances.get(address) ?? 0n, note);
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
    totalSupply: boundedAmount(current.totalSupply + supply, "the total supply", note),
  }));
  await recordAnomalies(db, context.chain.id, event, "Oro:Transfer", anomalies);
});

type MintEvent = Parameters<Parameters<typeof ponder.on<"Oro:Minted">>[1]>[0]["event"];
type OroContext = Parameters<Parameters<typeof ponder.on<"Oro:Minted">>[1]>[0]["context"];

/** A human's state as of their latest mint: a `human` row's columns, or a World ID 4.0 session's. */
interface HumanState extends StreakAtMint {
  numOfMints: number;
  firstMintedAt: number;
  lastReceiver: Address;
}

/** The state a `human` or `world_id4_human` row holds (undefined until the human has minted there). */
function storedState(row: {
  numOfMints: number;
  firstMintedAt: number | null;
  lastMintedAt: number | null;
  currentStreak: number;
  longestStreak: number;
  lastReceiver: Address | null;
}): HumanState | undefined {
  const { numOfMints, firstMintedAt, lastMintedAt, currentStreak, longestStreak, lastReceiver } = row;
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
  minted: { human: bigint; receiver: Address; amount: bigint; numOfMints: bigint },
  previous: HumanState | undefined,
  note: NoteAnomaly,
): Promise<HumanState> {
  const { db } = context;
  const mintedAt = Number(event.block.timestamp);
  const nullifierHash = nullifierHashToHex(minted.human);
  const receiver = lower(minted.receiver);
  const numOfMints = countFromEvent(minted.numOfMints, (previous?.numOfMints ?? 0) + 1, "numOfMints", note);
  const { waitBetweenMints } = await currentSettings(db, context.chain.id, note);
  const streak = streakAfterMint(previous, mintedAt, waitBetweenMints);

  if (minted.receiver === zeroAddress) {
    note("zero_address", `a mint of ${minted.amount} to the zero address by human ${nullifierHash}: recorded, no account credited`);
  } else {
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
        mintsReceived: Math.min(row.mintsReceived + 1, INT4_MAX),
        firstMintAt: row.firstMintAt ?? mintedAt,
        lastMintAt: mintedAt,
        firstMintNullifierHash: row.firstMintNullifierHash ?? nullifierHash,
      }));
  }

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
  const { note, anomalies } = anomalyCollector();
  const key = { nullifierHash: event.args.nullifierHash };
  const row = await context.db.find(human, key);
  if (row && row.worldId4SessionId !== null) {
    note("mint_after_move", `a 3.0 mint of human ${nullifierHashToHex(key.nullifierHash)}, whose state lives on World ID 4.0 session ${nullifierHashToHex(row.worldId4SessionId)}: counted on their 3.0 row`);
  }
  const state = await recordMint(
    event,
    context,
    { human: event.args.nullifierHash, receiver: event.args.receiver, amount: event.args.amount, numOfMints: event.args.numOfMints },
    row ? storedState(row) : undefined,
    note,
  );
  if (row) await context.db.update(human, key).set(state);
  else await context.db.insert(human).values({ ...key, ...state, worldId4SessionId: null });
  await recordAnomalies(context.db, context.chain.id, event, "Oro:Minted", anomalies);
});

// World ID 4.0: the enrolment names the session's human (always before its first MintedWithSession).
ponder.on("Oro:WorldId4Enrolled", async ({ event, context }) => {
  const { db } = context;
  const { note, anomalies } = anomalyCollector();
  const { sessionId, sessionSeed, movedFrom, human: enrolmentNullifier } = event.args;
  const enrolledAt = Number(event.block.timestamp);
  const done = async () => {
    await updateStats(db, context.chain.id, enrolledAt);
    await recordAnomalies(db, context.chain.id, event, "Oro:WorldId4Enrolled", anomalies);
  };

  // A session's state row is written with the session, and is the narrow one: it answers whether the id is enrolled.
  if (await db.find(worldId4Human, { sessionId })) {
    note("session_enrolled_twice", `session ${nullifierHashToHex(sessionId)} is enrolled already: its first enrolment stands`);
    return done();
  }
  // The human key: a mover keeps their 3.0 nullifier hash, a human new under 4.0 is their enrolment nullifier. Both are
  // event arguments, so Ponder predicts this lookup too.
  const humanKey = movedFrom !== 0n ? movedFrom : enrolmentNullifier;
  const row = await db.find(human, { nullifierHash: humanKey });
  const idkitSessionId = idkitSessionIdFromEvent(sessionId, sessionSeed, note);
  const secondSession = row !== null && row.worldId4SessionId !== null;
  if (row && row.worldId4SessionId !== null) {
    note("human_enrolled_twice", `human ${nullifierHashToHex(humanKey)} has session ${nullifierHashToHex(row.worldId4SessionId)} already: session ${nullifierHashToHex(sessionId)} recorded beside it, their state stays on the first`);
  }
  const humanHex = nullifierHashToHex(humanKey);
  await db.insert(worldIdSession).values({
    sessionId,
    idkitSessionId,
    problem: idkitSessionId === null ? "the enrolment's seed is not an OPRF seed (World's prefix byte 01): no IDKit session id" : null,
    human: humanHex,
    enrolmentNullifier: nullifierHashToHex(enrolmentNullifier),
    movedFrom: movedFrom !== 0n ? nullifierHashToHex(movedFrom) : null,
    receiver: lower(event.args.receiver),
    enrolledAt,
    blockNumber: Number(event.block.number),
  });
  // A human who moved brings their 3.0 state (their row, if they ever minted), which their session carries on. Once per
  // human: a moved human's 3.0 path is closed, so their 3.0 state never changes again.
  const history = row && !secondSession ? storedState(row) : undefined;
  await db.insert(worldId4Human).values({
    sessionId,
    human: humanHex,
    numOfMints: history?.numOfMints ?? 0,
    firstMintedAt: history?.firstMintedAt ?? null,
    lastMintedAt: history?.lastMintedAt ?? null,
    currentStreak: history?.currentStreak ?? 0,
    longestStreak: history?.longestStreak ?? 0,
    lastReceiver: history?.lastReceiver ?? null,
  });
  if (!row) {
    await db.insert(human).values({
      nullifierHash: humanKey,
      numOfMints: 0,
      firstMintedAt: null,
      lastMintedAt: null,
      currentStreak: 0,
      longestStreak: 0,
      lastReceiver: null,
      worldId4SessionId: sessionId,
    });
  } else if (!secondSession) {
    await db.update(human, { nullifierHash: humanKey }).set({ worldId4SessionId: sessionId });
  }
  return done();
});

ponder.on("Oro:MintedWithSession", async ({ event, context }) => {
  const { note, anomalies } = anomalyCollector();
  // Looked up by the event's own value, which Ponder's prefetch recognises (ponder.schema.ts); the row holds the human
  // key and their state, so a session mint reads nothing else.
  const key = { sessionId: event.args.sessionId };
  const session = await context.db.find(worldId4Human, key);
  if (!session) {
    note(
      "orphan_mint",
      `a mint of ${event.args.amount} to ${lower(event.args.receiver)} with session ${nullifierHashToHex(key.sessionId)}, which no WorldId4Enrolled named: no human to file it under, so no mint row (its Transfer moved the balance)`,
    );
    await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
  } else {
    const state = await recordMint(
      event,
      context,
      { human: BigInt(session.human), receiver: event.args.receiver, amount: event.args.amount, numOfMints: event.args.numOfMints },
      storedState(session),
      note,
    );
    await context.db.update(worldId4Human, key).set(state);
  }
  await recordAnomalies(context.db, context.chain.id, event, "Oro:MintedWithSession", anomalies);
});

/** A change of a mint setting: the setting's row, its history, the totals' clock. */
async function recordSettingChange(
  event: Pick<MintEvent, "id" | "block" | "log" | "transaction">,
  context: OroContext,
  change: { setting: "amount_per_mint" | "wait_between_mints" | "external_nullifier"; oldValue: bigint; newValue: bigint },
): Promise<void> {
  await context.db.insert(settingChange).values({
    id: event.id,
    ...change,
    blockNumber: Number(event.block.number),
    timestamp: Number(event.block.timestamp),
    transactionHash: event.transaction.hash,
  });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
}

ponder.on("Oro:AmountPerMintUpdated", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { amountPerMint: event.args.newAmountPerMint });
  await recordSettingChange(event, context, { setting: "amount_per_mint", oldValue: event.args.oldAmountPerMint, newValue: event.args.newAmountPerMint });
});

ponder.on("Oro:WaitBetweenMintsUpdated", async ({ event, context }) => {
  const { note, anomalies } = anomalyCollector();
  await updateSettings(context.db, context.chain.id, { waitBetweenMints: secondsFromEvent(event.args.newWaitBetweenMints, "waitBetweenMints", note) });
  await recordSettingChange(event, context, { setting: "wait_between_mints", oldValue: event.args.oldWaitBetweenMints, newValue: event.args.newWaitBetweenMints });
  await recordAnomalies(context.db, context.chain.id, event, "Oro:WaitBetweenMintsUpdated", anomalies);
});

ponder.on("Oro:ExternalNullifierUpdated", async ({ event, context }) => {
  const { note, anomalies } = anomalyCollector();
  const { newExternalNullifierHash, oldExternalNullifierHash } = event.args;
  const appId = textFromEvent(event.args.appId, "appId", note);
  const action = textFromEvent(event.args.action, "action", note);
  await updateSettings(context.db, context.chain.id, { externalNullifierHash: newExternalNullifierHash, appId, action });
  await recordSettingChange(event, context, { setting: "external_nullifier", oldValue: oldExternalNullifierHash, newValue: newExternalNullifierHash });
  await recordAnomalies(context.db, context.chain.id, event, "Oro:ExternalNullifierUpdated", anomalies);
});

ponder.on("Oro:Killswitched", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { killed: true });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});

ponder.on("Oro:OwnershipTransferred", async ({ event, context }) => {
  await updateSettings(context.db, context.chain.id, { owner: lower(event.args.newOwner) });
  await updateStats(context.db, context.chain.id, Number(event.block.timestamp));
});
