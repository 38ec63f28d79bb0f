import type { Context } from "ponder:registry";
import { settings, stats } from "ponder:schema";

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
  const apply = (current: StatsRow): Partial<StatsRow> => ({
    ...change(current),
    lastEventAt: Math.max(current.lastEventAt, eventAt),
  });
  const empty: StatsRow = { chainId, ...EMPTY_STATS };
  await db.insert(stats).values({ ...empty, ...apply(empty) }).onConflictDoUpdate(apply);
}

/** Records new values of the contracts' settings (the first event of a deployment creates the row). */
export async function updateSettings(db: Db, chainId: number, change: Partial<SettingsRow>): Promise<void> {
  await db.insert(settings).values({ chainId, ...INITIAL_SETTINGS, ...change }).onConflictDoUpdate(change);
}

/** The settings in force, which the constructor's events always create before the first mint. */
export async function currentSettings(db: Db, chainId: number): Promise<SettingsRow> {
  const row = await db.find(settings, { chainId });
  if (!row) throw new Error(`no ORO settings indexed on chain ${chainId}: the token's constructor events were missed`);
  return row;
}
