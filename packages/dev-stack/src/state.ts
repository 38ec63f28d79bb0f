import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { processesInGroup, processAlive } from "./proc.js";
import { signalGroup } from "./processes.js";

/** What a running stack records in `<stackDir>/stack.json`: for tests, tools, and the next start after a crash. */
export interface StackState {
  /** The stack command's own process. */
  pid: number;
  mode: "start" | "dev";
  ready: boolean;
  services: { name: string; url: string; state: string; pid?: number; command?: string }[];
}

export const stateFile = (stackDir: string) => path.join(stackDir, "stack.json");

export function readState(stackDir: string): StackState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(stackDir), "utf8")) as StackState;
  } catch {
    return undefined;
  }
}

export function writeState(stackDir: string, state: StackState): void {
  mkdirSync(stackDir, { recursive: true });
  const file = stateFile(stackDir);
  // Written whole and renamed, so a reader never sees half a file.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

export function removeState(stackDir: string): void {
  rmSync(stateFile(stackDir), { force: true });
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return undefined;
  }
}

/**
 * After a stack command that was killed without stopping its services (SIGKILL, a closed terminal), stops the
 * process groups it left, each checked against the command it recorded so that a reused PID is never hit.
 * Returns the PID of a stack command that is still running from this folder, if any.
 */
export async function reapPreviousStack(stackDir: string): Promise<number | undefined> {
  const previous = readState(stackDir);
  if (!previous) return undefined;
  if (previous.pid !== process.pid && processAlive(previous.pid)) return previous.pid;
  const killed: number[] = [];
  for (const service of previous.services) {
    if (!service.pid || !service.command) continue;
    const members = processesInGroup(service.pid) ?? [];
    if (members.length === 0) continue;
    if (commandOf(service.pid) !== service.command) continue;
    signalGroup(service.pid, "SIGKILL");
    killed.push(service.pid);
  }
  // Their ports are free once the processes are gone.
  const deadline = Date.now() + 10_000;
  while (killed.some((pid) => (processesInGroup(pid) ?? []).length > 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  removeState(stackDir);
  return undefined;
}

/** The command line of a running process as /proc shows it (to recognise it later). */
export function recordCommand(pid: number): string | undefined {
  return commandOf(pid);
}
