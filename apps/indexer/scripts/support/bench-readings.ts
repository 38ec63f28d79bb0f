/**
 * What the indexer bench reads off Ponder (its log, /metrics, /status, /stats) and off the machine (/proc), and how it
 * prints the figures.
 */
import { readFileSync } from "node:fs";
import { processesInGroup } from "@oro/dev-stack";
import type { SyntheticChain } from "./synthetic-chain";

export const format = (value: number) => Math.round(value).toLocaleString("en-US");
export const mebibytes = (bytes: number) => `${format(bytes / 2 ** 20)} MiB`;
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** RSS (bytes) and CPU seconds of every process in a group, from /proc. */
export function groupUsage(pgid: number): { rss: number; cpuSeconds: number } {
  let rss = 0;
  let ticks = 0;
  for (const pid of processesInGroup(pgid) ?? [pgid]) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      rss += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return { rss, cpuSeconds: ticks / 100 };
}

/** Seconds between the log lines containing `from` and `to` (Ponder prefixes each with HH:MM:SS.mmm). */
export function between(output: string, from: string, to: string): number | undefined {
  const clock = (text: string) => {
    const line = output.split("\n").find((candidate) => candidate.includes(text));
    const match = line === undefined ? null : /(\d\d):(\d\d):(\d\d)\.(\d{3})/.exec(line);
    if (!match) return undefined;
    const [, h, m, s, ms] = match;
    return Number(h) * 3_600 + Number(m) * 60 + Number(s) + Number(ms) / 1_000;
  };
  const start = clock(from);
  const end = clock(to);
  if (start === undefined || end === undefined) return undefined;
  return (end - start + 86_400) % 86_400;
}

/** Where Ponder's time went, from its Prometheus /metrics: each histogram's total (ms) and count, largest first. */
export async function metricsDigest(base: string): Promise<string[]> {
  const text = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) }).then((response) => response.text(), () => "");
  const sums = new Map<string, { sum: number; count: number }>();
  const counters: string[] = [];
  for (const line of text.split("\n")) {
    const match = /^(ponder_[a-z_]+?)(_sum|_count)?(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!match) continue;
    const [, name, suffix, labels = "", raw] = match;
    const key = `${name}${labels.replace(/,?chain="[^"]*"/, "").replace("{,", "{").replace("{}", "")}`;
    if (suffix === "_sum" || suffix === "_count") {
      const entry = sums.get(key) ?? { sum: 0, count: 0 };
      if (suffix === "_sum") entry.sum += Number(raw);
      else entry.count += Number(raw);
      sums.set(key, entry);
    } else if (name === "ponder_indexing_cache_requests_total" || name === "ponder_indexing_rpc_requests_total" || name === "ponder_postgres_query_total") {
      if (Number(raw) > 0) counters.push(`  ${key}: ${format(Number(raw))}`);
    }
  }
  const top = [...sums].filter(([, entry]) => entry.sum > 0).sort((a, b) => b[1].sum - a[1].sum).slice(0, 18);
  // A miss is a lookup Ponder could not predict in a table that no longer fits its cache: one query per event.
  const misses = counters
    .map((line) => /table="([^"]+)",type="miss"\}: ([\d,]+)/.exec(line))
    .filter((match) => match !== null)
    .map((match) => `  WARNING: ${match[2]} lookups in ${match[1]} missed Ponder's cache, one database query each (README: the cache cliff)`);
  return [...top.map(([key, entry]) => `  ${key}: ${(entry.sum / 1000).toFixed(1)} s over ${format(entry.count)}`), ...counters, ...misses];
}

/** Handler time (seconds, all events) and lookups that missed Ponder's cache, from its /metrics. */
export async function metricsTotals(base: string): Promise<{ handlerSeconds: number; misses: number }> {
  const text = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) }).then((response) => response.text(), () => "");
  let handlerMs = 0;
  let misses = 0;
  for (const match of text.matchAll(/^ponder_indexing_function_duration_sum\{[^}]*\} ([0-9.e+-]+)$/gm)) handlerMs += Number(match[1]);
  for (const match of text.matchAll(/^ponder_indexing_cache_requests_total\{[^}]*type="miss"[^}]*\} ([0-9.e+-]+)$/gm)) misses += Number(match[1]);
  return { handlerSeconds: handlerMs / 1000, misses };
}

/** Events Ponder has indexed so far (the sum of its ponder_indexing_completed_events gauge), or undefined. */
export async function indexedEvents(base: string): Promise<number | undefined> {
  const text = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(10_000) }).then((response) => response.text(), () => undefined);
  if (text === undefined) return undefined;
  let total = 0;
  for (const match of text.matchAll(/^ponder_indexing_completed_events\{[^}]*\} ([0-9.e+-]+)$/gm)) total += Number(match[1]);
  return total;
}

/** The indexer's totals (its /stats). */
export interface StatsAnswer {
  mints: number;
  humans: number;
  holders: number;
  totalSupply: string;
}

export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** The newest block Ponder has indexed (its /status), or undefined while it does not answer. */
export async function indexedBlock(base: string): Promise<number | undefined> {
  try {
    const status = await getJson<Record<string, { block?: { number: number } }>>(`${base}/status`);
    return Object.values(status)[0]?.block?.number;
  } catch {
    return undefined;
  }
}

/** Where the indexer's totals differ from the chain's after `mints` mints (empty: every event indexed). */
export function checkTotals(chain: SyntheticChain, stats: StatsAnswer, mints: number): string[] {
  const humans = chain.humansForMints(mints);
  const problems: string[] = [];
  if (stats.mints !== mints) problems.push(`mints ${stats.mints}, the chain has ${mints}`);
  if (stats.humans !== humans) problems.push(`humans ${stats.humans}, the chain has ${humans}`);
  if (stats.holders !== humans) problems.push(`holders ${stats.holders}, the chain has ${humans}`);
  if (BigInt(stats.totalSupply) !== BigInt(mints) * 10n ** 18n) problems.push(`total supply ${stats.totalSupply}, the chain has ${BigInt(mints) * 10n ** 18n}`);
  return problems;
}
