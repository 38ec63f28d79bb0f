import { task } from "hardhat/config";
import { TASK_NODE, TASK_NODE_SERVER_READY } from "hardhat/builtin-tasks/task-names";
import { subtask } from "hardhat/config";
import { deployAll } from "../deploy/deploy";
import { env } from "../env";
import { refuse } from "../lib/refusal";

task("deploy", "Deploys every ORO contract to --network and writes deployments/<chainId>.json (idempotent)")
  .setAction(async (_args, hre) => {
    const result = await deployAll(hre);
    for (const line of result.log) console.log(line);
  });

let deployWhenServing = false;

// The `chain` task reuses Hardhat's node and deploys into it as soon as it listens.
subtask(TASK_NODE_SERVER_READY).setAction(async (args: { address: string; port: number }, hre, runSuper) => {
  await runSuper(args);
  if (!deployWhenServing) return;
  const result = await deployAll(hre);
  console.log(`\nORO local chain ready at http://${args.address}:${args.port} (chain id 31337)`);
  for (const line of result.log) console.log(`  ${line}`);
  console.log("  owner tasks: pnpm --filter @oro/contracts exec hardhat status --network localhost\n");
});

task("chain", "Starts a local chain (CHAIN_HOST:CHAIN_PORT, default 127.0.0.1:8545) with every contract deployed")
  .setAction(async (_args, hre) => {
    if (hre.network.name !== "hardhat") {
      refuse("the chain task starts its own local chain; do not pass --network");
    }
    deployWhenServing = true;
    await hre.run(TASK_NODE, { hostname: env.chainHost, port: env.chainPort });
  });
