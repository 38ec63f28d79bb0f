import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";
import { processesInGroup } from "./proc.js";

/** How a process ended: its exit code, or the signal that ended it. */
export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A process we started in its own process group, with its output kept (and optionally logged to a file). */
export interface Service {
  name: string;
  child: ChildProcess;
  /** The process id, which is also its process group id. */
  pid: number;
  /** The file its output goes to, when one was given. */
  logFile: string | undefined;
  /** Everything it printed so far (stdout and stderr interleaved; the newest megabyte). */
  output(): string;
  /** The last `count` non-empty lines of its output. */
  lastLines(count: number): string[];
  running(): boolean;
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<ExitStatus>;
  /** Resolves once its output contains `text`; rejects if it exits first or the timeout passes. */
  waitForOutput(text: string | RegExp, timeoutMs: number): Promise<void>;
  /**
   * Stops the whole process group: SIGTERM, then SIGKILL after `graceMs`, then SIGKILL again for children
   * that outlived their parent. Safe to call twice.
   */
  stop(graceMs?: number): Promise<void>;
}

export interface StartServiceOptions extends Omit<SpawnOptions, "stdio" | "detached"> {
  /** Write everything the process prints to this file (created with its folder; replaced if it exists). */
  logFile?: string;
}

const KEEP_OUTPUT = 1_000_000;

/** Sends `signal` to the process group `pid`; false when the group is gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group `pid` is still alive (zombies waiting to be reaped do not count). */
export function groupAlive(pid: number): boolean {
  const members = processesInGroup(pid);
  return members ? members.length > 0 : signalGroup(pid, 0);
}

/** Starts `command` in its own process group (so that stopping it stops everything it started). */
export function startService(name: string, command: string, args: string[], options: StartServiceOptions = {}): Service {
  const { logFile, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log: WriteStream | undefined;
  if (logFile) {
    mkdirSync(path.dirname(logFile), { recursive: true });
    log = createWriteStream(logFile);
    log.on("error", () => undefined);
  }
  let output = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    log?.write(chunk);
    output += chunk.toString();
    if (output.length > 2 * KEEP_OUTPUT) output = output.slice(-KEEP_OUTPUT);
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const exited = new Promise<ExitStatus>((resolve) => {
    // "close" comes after the output streams ended, so the output is complete when this resolves.
    child.once("close", (code, signal) => {
      log?.end();
      resolve({ code, signal });
    });
    child.once("error", (error) => {
      output += `\n${name} could not start: ${error.message}\n`;
      log?.end(`\n${name} could not start: ${error.message}\n`);
      resolve({ code: null, signal: null });
    });
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
    for (const listener of listeners) listener();
  });
  const pid = child.pid ?? -1;
  const describeExit = () =>
    child.signalCode ? `was ended by ${child.signalCode}` : `exited (code ${child.exitCode ?? "unknown"})`;

  return {
    name,
    child,
    pid,
    logFile,
    output: () => output,
    lastLines(count) {
      return output
        .split(/\r?\n/)
        .filter((line) => line.trim() !== "")
        .slice(-count);
    },
    running: () => !ended && child.exitCode === null && child.signalCode === null,
    exited,
    waitForOutput(text, timeoutMs) {
      const found = () => (typeof text === "string" ? output.includes(text) : text.test(output));
      return new Promise<void>((resolve, reject) => {
        const finish = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (found()) finish();
          else if (ended) finish(new Error(`${name} ${describeExit()} before printing ${String(text)}:\n${output.slice(-4_000)}`));
        };
        const timer = setTimeout(
          () => finish(new Error(`${name} did not print ${String(text)} within ${timeoutMs} ms:\n${output.slice(-4_000)}`)),
          timeoutMs,
        );
        listeners.add(check);
        check();
      });
    },
    async stop(graceMs = 8_000) {
      if (pid < 0) return;
      if (!ended) {
        signalGroup(pid, "SIGTERM");
        const killTimer = setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs);
        await exited;
        clearTimeout(killTimer);
      }
      // Children that ignored SIGTERM, or outlived their parent.
      signalGroup(pid, "SIGKILL");
      const deadline = Date.now() + graceMs;
      while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    },
  };
}
