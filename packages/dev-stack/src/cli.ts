// The stack command (`pnpm start`, `pnpm dev` at the root, through bin/stack.mjs): starts everything, prints
// progress and one table, keeps the logs in files, and stops every process on Ctrl-C / SIGTERM.
import path from "node:path";
import { loadStackConfig, PORT_VARIABLES, SERVICE_NAMES, StackConfigError, type StackConfig } from "./env.js";
import { isPortFree } from "./ports.js";
import { locateSimulator } from "./simulator.js";
import { LocalStack, type ServiceStatus } from "./stack.js";
import { reapPreviousStack } from "./state.js";

const out = (line = "") => process.stdout.write(`${line}\n`);

function shortPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith("..") ? file : relative;
}

function seconds(config: StackConfig): string {
  return `${((Date.now() - config.startedAt) / 1000).toFixed(1)} s`;
}

const STATE_LABELS: Record<ServiceStatus["state"], string> = {
  waiting: "waiting",
  starting: "starting",
  ready: "ready",
  failed: "FAILED",
  exited: "EXITED",
  stopped: "stopped",
  unavailable: "not available",
};

function table(stack: LocalStack): string[] {
  const rows = stack.list().map((status) => [
    status.name,
    status.url,
    status.detail ? `${STATE_LABELS[status.state]} · ${status.detail}` : STATE_LABELS[status.state],
  ]);
  const header = ["service", "URL", "state"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const format = (row: string[]) => `  ${row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell)).join("   ")}`.trimEnd();
  return [format(header), format(widths.map((width, column) => "─".repeat(column < 2 ? width : Math.min(width, 40)))), ...rows.map(format)];
}

function lastLogLines(status: ServiceStatus): string[] {
  const lines = status.service?.lastLines(15) ?? [];
  const where = status.logFile ? ` (${shortPath(status.logFile)})` : "";
  return [`Last lines of ${status.name}${where}:`, ...lines.map((line) => `  │ ${line}`)];
}

async function checkPorts(config: StackConfig, withSimulator: boolean): Promise<void> {
  for (const name of SERVICE_NAMES) {
    if (name === "simulator" && !withSimulator) continue;
    const port = config.ports[name];
    if (await isPortFree(port)) continue;
    const { variable } = PORT_VARIABLES[name];
    throw new StackConfigError(`Port ${port} (${name}) is already in use: set ${variable} to a free port, for example ${variable}=${port + 100}.`);
  }
}

async function main(): Promise<number> {
  const mode = process.argv[2] ?? "start";
  if (mode !== "start" && mode !== "dev") {
    out(`usage: stack.mjs [start|dev], got "${mode}"`);
    return 2;
  }
  let config: StackConfig;
  try {
    config = loadStackConfig();
    const running = await reapPreviousStack(config.stackDir);
    if (running !== undefined) {
      throw new StackConfigError(
        `A stack started from this folder is still running (pid ${running}): stop it (Ctrl-C in its terminal, or kill ${running}), or set STACK_DIR and other ports for a second one.`,
      );
    }
    await checkPorts(config, !("unavailable" in locateSimulator()));
  } catch (error) {
    if (error instanceof StackConfigError) {
      out(error.message);
      return 1;
    }
    throw error;
  }

  const stack = new LocalStack({
    mode,
    ports: config.ports,
    stackDir: config.stackDir,
    onProgress: (line) => out(`  ${seconds(config).padStart(7)}  ${line}`),
  });

  let stopRequested: (signal: string) => void = () => undefined;
  const stopSignal = new Promise<string>((resolve) => {
    stopRequested = resolve;
  });
  let signalled = false;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      stopRequested(signal);
    });
  }

  // The launcher prints this before its build step.
  if (!config.headerShown) {
    out(`ORO ${mode === "dev" ? "development stack (watch mode)" : "local stack"}: logs in ${shortPath(stack.logsDir)}/`);
  }
  const started = stack.start();
  const first = await Promise.race([
    started.then(
      () => ({ kind: "ready" as const }),
      (error: unknown) => ({ kind: "failed" as const, error }),
    ),
    stopSignal.then((signal) => ({ kind: "signal" as const, signal })),
  ]);

  if (first.kind === "signal") {
    out(`\n${first.signal}: stopping everything …`);
    await stack.stop();
    await started.catch(() => undefined);
    out("Stopped.");
    return 0;
  }
  if (first.kind === "failed") {
    const failed = stack.list().find((status) => status.state === "failed" || status.state === "exited");
    out();
    out(`✗ ${failed ? `${failed.name} did not start: ${failed.detail}` : (first.error as Error).message}`);
    if (failed) for (const line of lastLogLines(failed)) out(line);
    out();
    for (const line of table(stack)) out(line);
    out("\nEverything was stopped.");
    return 1;
  }

  out();
  for (const line of table(stack)) out(line);
  out();
  const simulator = stack.status.simulator;
  out(`Ready in ${seconds(config)}. Open ${stack.entryUrl()}${simulator.state === "ready" ? " (the World App simulator, with the mini app inside)" : ""}`);
  out(`Logs: ${shortPath(stack.logsDir)}/<service>.log. Ctrl-C stops everything.`);

  const next = await Promise.race([
    stack.died.then((status) => ({ kind: "died" as const, status })),
    stopSignal.then((signal) => ({ kind: "signal" as const, signal })),
  ]);
  if (next.kind === "signal") {
    out(`\n${next.signal}: stopping everything …`);
    await stack.stop();
    out("Stopped.");
    return 0;
  }
  out();
  out(`✗ ${next.status.name} ${next.status.detail}: stopping everything.`);
  for (const line of lastLogLines(next.status)) out(line);
  await stack.stop();
  out();
  for (const line of table(stack)) out(line);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
