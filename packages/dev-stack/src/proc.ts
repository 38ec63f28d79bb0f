import { readdirSync, readFileSync } from "node:fs";

/** One live process as /proc shows it (Linux). */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
}

/** Every process /proc lists, zombies excluded (a zombie is dead, waiting for a parent to reap it); null without /proc. */
export function listProcesses(): ProcessInfo[] | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  const processes: ProcessInfo[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [state, ppid, pgid] = fields;
    if (state === undefined || state === "Z" || state === "X") continue;
    processes.push({ pid: Number(entry), ppid: Number(ppid), pgid: Number(pgid), state });
  }
  return processes;
}

/** Live processes of the process group `pgid`; null where /proc is not available. */
export function processesInGroup(pgid: number): number[] | null {
  const all = listProcesses();
  return all && all.filter((process) => process.pgid === pgid).map((process) => process.pid);
}

/** Every live descendant of `pid` (children, their children, ...); empty where /proc is not available. */
export function descendantsOf(pid: number): number[] {
  const all = listProcesses() ?? [];
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = all.filter((process) => frontier.includes(process.ppid)).map((process) => process.pid);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** Whether `pid` is a live process (not a zombie). */
export function processAlive(pid: number): boolean {
  const all = listProcesses();
  if (all) return all.some((process) => process.pid === pid);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
