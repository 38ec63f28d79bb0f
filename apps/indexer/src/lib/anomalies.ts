/**
 * What the handlers cannot read as the contracts mean it. An event is only ever a value of its ABI types: a handler
 * that threw on one would stop the indexer at that block on every restart (Ponder retries the same batch), so each
 * handler stores what it can, records the rest here (the `anomaly` table, a log line) and goes on.
 */
export const ANOMALY_KINDS = [
  /** A MintedWithSession for a session no WorldId4Enrolled named: no human to file it under. */
  "orphan_mint",
  /** A session whose seed is not an OPRF seed (World's prefix byte 01): IDKit cannot prove it. */
  "unreadable_session_seed",
  /** A WorldId4Enrolled for a session id already enrolled: the first enrolment stands. */
  "session_enrolled_twice",
  /** A second session for a human who has one: their state stays on the first. */
  "human_enrolled_twice",
  /** A 3.0 mint of a human who moved to World ID 4.0 (the contract refuses it). */
  "mint_after_move",
  /** A VoucherClaimed for a nonce already paid: the first payout stands. */
  "voucher_paid_twice",
  /** A number that does not fit its column (a count above 2^31 - 1, seconds above 2^53 - 1): stored bounded. */
  "value_out_of_range",
  /** A balance or a total that would leave 0 … 2^256 - 1: stored bounded. */
  "amount_out_of_range",
  /** A mint to the zero address, which is never an account. */
  "zero_address",
  /** Text with NUL characters, which PostgreSQL's text refuses: stored without them. */
  "text_with_nul",
  /** An event before the token's constructor events (no settings yet): read with the initial settings. */
  "settings_missing",
] as const;

export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

export interface Anomaly {
  kind: AnomalyKind;
  /** One line: what was found and what was stored instead. */
  detail: string;
}

/** Where the pure rules report what they could not read; a handler records what they report. */
export type NoteAnomaly = (kind: AnomalyKind, detail: string) => void;

/** Collects the anomalies of one event. */
export function anomalyCollector(): { note: NoteAnomaly; anomalies: Anomaly[] } {
  const anomalies: Anomaly[] = [];
  return { note: (kind, detail) => anomalies.push({ kind, detail }), anomalies };
}
