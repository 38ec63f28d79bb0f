import { task } from "hardhat/config";
import { commandLineTask, isRefusal } from "../lib/refusal";
import "./deploy";
import "./owner";

/** Every task this project defines; a refusal in one of them is the operator's cue, not a crash. */
export const ORO_TASKS = [
  "deploy", "chain", "status", "set-amount-per-mint", "set-wait-between-mints", "set-external-nullifier",
  "killswitch", "set-claim-signer", "fund-claims", "pause-claims", "unpause-claims",
] as const;

// Run from the command line, a refusal prints its one line and exits 1: Hardhat would add a stack trace (on CI)
// or a hint about --show-stack-traces, which still shows everything. Called from code (tests, other tasks),
// the refusal is thrown as usual.
for (const name of ORO_TASKS) {
  task(name).setAction(async (args: Record<string, unknown>, hre, runSuper) => {
    try {
      return (await runSuper(args)) as unknown;
    } catch (error) {
      if (isRefusal(error) && commandLineTask() === name && !hre.hardhatArguments.showStackTraces) {
        process.stderr.write(`${name}: ${error.message}\n`);
        process.exit(1);
      }
      throw error;
    }
  });
}
