// pnpm swap-volumes import <file.json|file.csv> | claimed <address> [note] | show <address>
// Loads the partner's swap records into the configured database (DATABASE_URL, else the embedded PGlite),
// and marks swap rewards paid. Re-importing a file adds only the records not seen before (by their id).
import { createReadStream } from "node:fs";
import { isAddress } from "viem";
import { openDatabase } from "../src/db/database.js";
import { loadConfig } from "../src/env.js";
import { createUserDataService } from "../src/services/user/user-data.js";
import { importSwapFile, markSwapRewardClaimed } from "../src/services/swap-reward/swap-volumes.js";

const [command, argument, ...rest] = process.argv.slice(2);
const usage = "usage: swap-volumes import <file.json|file.csv> | claimed <address> [note] | show <address>";
const config = loadConfig();
const database = await openDatabase(config.database);
try {
  await database.migrate();
  const { prisma } = database;
  if (command === "import" && argument) {
    const format = argument.toLowerCase().endsWith(".csv") ? "csv" : "json";
    let problems = 0;
    const done = await importSwapFile(prisma, () => createReadStream(argument, "utf8"), format, (problem) => {
      // Each problem on a line of its own as it is found, under one heading.
      if (problems++ === 0) console.error("nothing imported:");
      console.error(problem);
    });
    if (done) console.log(`${done.imported} swap records imported, ${done.skipped} already there (${done.records} in ${argument})`);
    else process.exitCode = 1;
  } else if ((command === "claimed" || command === "show") && argument && isAddress(argument, { strict: false })) {
    if (command === "claimed") {
      const marked = await markSwapRewardClaimed(prisma, argument, rest.join(" ") || undefined);
      console.log(marked ? `${argument.toLowerCase()}: swap reward marked Claimed` : `${argument.toLowerCase()} was already Claimed`);
    }
    const status = await createUserDataService({ prisma, countryHeader: undefined, minSwapVolumeUsd: config.swapRewardMinVolumeUsd }).swapReward(argument);
    console.log(`${argument.toLowerCase()}\t${status.rewardStatus}\t${status.totalSwapVolumeUsd} USD`);
  } else {
    console.error(usage);
    process.exitCode = 2;
  }
} finally {
  await database.close();
}
