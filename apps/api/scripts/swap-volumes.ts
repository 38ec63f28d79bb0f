// pnpm swap-volumes import <file.json|file.csv> | claimed <address> [note] | show <address>
// Loads the partner's swap records into the configured database (DATABASE_URL, else the embedded PGlite),
// and marks swap rewards paid. Re-importing a file adds only the records not seen before (by their id).
import { readFile } from "node:fs/promises";
import { isAddress } from "viem";
import { openDatabase } from "../src/db/database.js";
import { loadConfig } from "../src/env.js";
import { createUserDataService } from "../src/services/user/user-data.js";
import { importSwapRecords, markSwapRewardClaimed, parseSwapRecords, SwapImportError } from "../src/services/swap-reward/swap-volumes.js";

const [command, argument, ...rest] = process.argv.slice(2);
const usage = "usage: swap-volumes import <file.json|file.csv> | claimed <address> [note] | show <address>";
const config = loadConfig();
const database = await openDatabase(config.database);
try {
  await database.migrate();
  const { prisma } = database;
  if (command === "import" && argument) {
    const format = argument.toLowerCase().endsWith(".csv") ? "csv" : "json";
    const records = parseSwapRecords(await readFile(argument, "utf8"), format);
    const { imported, skipped } = await importSwapRecords(prisma, records);
    console.log(`${imported} swap records imported, ${skipped} already there (${records.length} in ${argument})`);
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
} catch (error) {
  if (!(error instanceof SwapImportError)) throw error;
  console.error(`nothing imported:\n${error.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
