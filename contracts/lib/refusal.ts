import { HardhatPluginError } from "hardhat/plugins";

const PLUGIN = "oro";

/** An operator's mistake the deploy or a task refuses (bad input, wrong network, wrong key): not a bug. */
export class Refusal extends HardhatPluginError {
  constructor(message: string) {
    super(PLUGIN, message);
  }
}

/** Refuses with one clear line; the command line prints only that line (see tasks/index.ts). */
export function refuse(message: string): never {
  throw new Refusal(message);
}

export function isRefusal(error: unknown): error is Refusal {
  return error instanceof HardhatPluginError && error.pluginName === PLUGIN;
}

/** Hardhat's global options that take a value (the task name is the first other word of the command line). */
const VALUED_GLOBAL_OPTIONS = new Set(["--network", "--config", "--max-memory", "--tsconfig"]);

/** The task named on the command line (`hardhat --network x set-amount-per-mint ...` gives "set-amount-per-mint"). */
export function commandLineTask(argv: readonly string[] = process.argv.slice(2)): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? "";
    if (VALUED_GLOBAL_OPTIONS.has(word)) {
      i++;
      continue;
    }
    if (!word.startsWith("-")) return word;
  }
  return undefined;
}
