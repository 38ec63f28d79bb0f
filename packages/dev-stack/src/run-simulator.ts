// Runs @oro/simulator's startSimulator in this process: `node run-simulator.js <entry> <settings JSON>`.
// Prints "simulator ready at <url>" once it serves, and closes it on SIGINT / SIGTERM.
import { pathToFileURL } from "node:url";
import type { SimulatorModule, SimulatorOptions } from "./simulator.js";

async function main(): Promise<void> {
  const [entry, settings] = process.argv.slice(2);
  if (!entry || !settings) throw new Error("usage: run-simulator.js <entry> <settings JSON>");
  const simulator = (await import(pathToFileURL(entry).href)) as Partial<SimulatorModule>;
  if (typeof simulator.startSimulator !== "function") throw new Error(`${entry} exports no startSimulator`);
  const running = await simulator.startSimulator(JSON.parse(settings) as SimulatorOptions);
  console.log(`simulator ready at ${running.url}`);
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    const timer = setTimeout(() => process.exit(1), 5_000);
    timer.unref();
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", close);
  process.once("SIGTERM", close);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
