import type { Context } from "ponder:registry";
import { anomaly, settings, stats } from "ponder:schema";
import type { Hex } from "viem";
import type { Anomaly, NoteAnomaly } from "../lib/anomalies";

type Db = Context["db"];
type StatsRow = typeof stats.$inferSelect;
type SettingsRow = typeof settings.$inferSelect;

const EMPTY_STATS: Omit<StatsRow, "chainId"> = {
  totalSupply: 0n,
  holders: 0,
  humans: 0,
  mints: 0,
  referralPayouts: 0,
  referralPaidOut: 0n,
  anomalies: 0,
  lastEventAt: 0,
};

const INITIAL_SETTINGS: Omit<SettingsRow, "chainId"> = {
  amountPerMint: 0n,
  waitBetweenMints: 0,
  externalNullifierHash: 0n,
  appId: "",
  action: "",
  owner: null,
  killed: false,
  claimSigner: null,
  claimsPaused: false,
};

/** Applies a change to the chain's totals and advances their clock to the event's time. */
export async function updateStats(
  db: Db,
  chainId: number,
  eventAt: number,
  change: (current: StatsRow) => Partial<StatsRow> = () => ({}),
): Promise<void> {
  // Read first, so that `change` sees the row as it is, once (it may note anomalies).
  const row = await db.find(stats, { chainId });
  const current: StatsRow = row ?? { chainId, ...EMPTY_STATS };
  const next = { ...change(current), lastEventAt: Math.max(current.lastEventAt, eventAt) };
  if (row) await db.update(stats, { chainId }).set(next);
  else await db.insert(stats).values({ ...current, ...next });
}

/** Records new values of the contracts' settings (the first event of a deployment creates the row). */
export async function updateSettings(db: Db, chainId: number, change: Partial<SettingsRow>): Promise<void> {
  await db.insert(settings).values({ chainId, ...INITIAL_SETTINGS, ...change }).onConflictDoUpdate(change);
}

/**
 * The settings in force. The constructor's events create them before the first mint; an event before them (not
 * the token's chain) is read with the initial settings and noted, not refused: a throw would stop the indexer.
 */
export async function currentSettings(db: Db, chainId: number, note: NoteAnomaly): Promise<SettingsRow> {
  const row = await db.find(settings, { chainId });
  if (row) return row;
  note("settings_missing", `no ORO settings indexed on chain ${chainId} before this event: read with the initial settings (wait 0)`);
  return { chainId, ...INITIAL_SETTINGS };
}

/** Where an event stands in the chain, as an anomaly row names it. */
export interface EventPlace {
  id: string;
  block: { number: bigint; timestamp: bigint };
  log: { logIndex: number };
  transaction: { hash: Hex };
}

/**
 * Records what a handler could not read (one row each, numbered within the event) and logs it on one line: the event
 * is indexed as far as it could be and the indexer goes on.
 */
export async function recordAnomalies(db: Db, chainId: number, event: EventPlace, eventName: string, anomalies: Anomaly[]): Promise<void> {
  if (anomalies.length === 0) return;
  let index = 0;
  for (const { kind, detail } of anomalies) {
    console.warn(`indexer anomaly ${kind} at ${eventName} block ${event.block.number} log ${event.log.logIndex}: ${detail}`);
    await db
      .insert(anomaly)
      .values({
        id: `${event.id}-${index++}`,
        kind,
        detail,
        event: eventName,
        blockNumber: Number(event.block.number),
        logIndex: event.log.logIndex,
        timestamp: Number(event.block.timestamp),
        transactionHash: event.transaction.hash,
      })
      .onConflictDoNothing();
  }
  await updateStats(db, chainId, Number(event.block.timestamp), (current) => ({ anomalies: current.anomalies + anomalies.length }));
}
