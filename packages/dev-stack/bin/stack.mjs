#!/usr/bin/env node
// `pnpm start` / `pnpm dev` at the root: builds what the stack runs from (once; Turborepo replays it after),
// with the build's output in .stack/logs/build.log, then hands over to the stack command (dist/cli.js).
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import { delimiter, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const root = resolve(packageDir, "..", "..");
process.env.STACK_STARTED_AT ??= String(Date.now());
const stackDir = resolve(process.env.STACK_DIR || join(root, ".stack"));
const logFile = join(stackDir, "logs", "build.log");
let interrupted = false;

/** A path as the user would type it from here: relative inside the current folder, absolute outside it. */
function shortPath(file) {
  const inside = relative(process.cwd(), file);
  return inside && !inside.startsWith("..") ? inside : file;
}

/** Turborepo runs the build through pnpm, so pnpm must be on PATH (it is when `pnpm start` runs this). */
function pnpmOnPath() {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, "pnpm")));
}

function build() {
  if (!pnpmOnPath()) {
    process.stdout.write("Run this through pnpm (npx --yes pnpm@10.34.9 start), or set STACK_SKIP_BUILD=1 after pnpm build.\n");
    process.exit(1);
  }
  // The packages the stack runs from: compiled contracts, the clients' dist, this package, the simulator.
  const filters = ["@oro/contracts", "@oro/clients", "@oro/dev-stack"];
  if (existsSync(join(root, "apps", "simulator", "package.json"))) filters.push("@oro/simulator");
  const turbo = join(root, "node_modules", ".bin", "turbo");
  // new-only: the full output of what is built (into the log), one line for what comes from the cache.
  const args = ["run", "build", ...filters.map((name) => `--filter=${name}`), "--output-logs=new-only"];
  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const shown = shortPath(logFile);
  const mode = process.argv[2] === "dev" ? "development stack (watch mode)" : "local stack";
  process.stdout.write(`ORO ${mode}: logs in ${shortPath(dirname(logFile))}/\n`);
  process.env.STACK_HEADER_SHOWN = "1";
  const progress = (line) => {
    const seconds = `${((Date.now() - Number(process.env.STACK_STARTED_AT)) / 1000).toFixed(1)} s`;
    process.stdout.write(`  ${seconds.padStart(7)}  ${line}\n`);
  };
  progress(`building the packages it runs from (${shown}) …`);
  return new Promise((resolveBuild) => {
    const child = spawn(turbo, args, {
      cwd: root,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.pipe(log, { end: false });
    // Turborepo names each task as it starts it: say which package is being built.
    let pending = "";
    child.stdout.on("data", (chunk) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const started = /^(@oro\/[\w-]+):build: cache miss, executing/.exec(line);
        if (started) progress(`building ${started[1]} …`);
      }
    });
    child.stderr.pipe(log, { end: false });
    // A stop during the build stops the build (and then nothing starts).
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
      process.on(signal, () => {
        interrupted = true;
        child.kill(signal);
      });
    }
    child.on("error", (error) => {
      log.end(`${error.message}\n`);
      resolveBuild(1);
    });
    child.on("close", (code) => {
      log.end();
      resolveBuild(code ?? 1);
    });
  }).then((code) => {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.removeAllListeners(signal);
    if (interrupted) {
      process.stdout.write("Stopped during the build.\n");
      process.exit(0);
    }
    if (code !== 0) {
      const lines = readFileSync(logFile, "utf8").split("\n").filter((line) => line.trim() !== "").slice(-15);
      process.stdout.write(`✗ the build failed (code ${code}). Last lines of ${shown}:\n${lines.map((line) => `  │ ${line}\n`).join("")}`);
      process.exit(1);
    }
  });
}

if (process.env.STACK_SKIP_BUILD !== "1") await build();
await import(pathToFileURL(join(packageDir, "dist", "cli.js")).href);
