// pnpm allow-list add <address> [note] | remove <address> | list
// Keeps the referral allow-list of the configured database (DATABASE_URL, else the embedded PGlite).
import { openDatabase } from "../src/db/database.js";
import { loadConfig } from "../src/env.js";
import { createAllowList } from "../src/services/allow-list.js";

const [command, address, ...note] = process.argv.slice(2);
const database = await openDatabase(loadConfig().database);
try {
  await database.migrate();
  const allowList = createAllowList(database.prisma);
  if (command === "add" && address) {
    const entry = await allowList.add(address, note.join(" ") || undefined);
    console.log(`allow-listed ${entry.address}${entry.note ? ` (${entry.note})` : ""}`);
  } else if (command === "remove" && address) {
    console.log((await allowList.remove(address)) ? `removed ${address}` : `${address} was not on the allow-list`);
  } else if (command === "list") {
    for (const entry of await allowList.list()) console.log(`${entry.address}\t${entry.createdAt.toISOString()}\t${entry.note ?? ""}`);
  } else {
    console.error("usage: allow-list add <address> [note] | remove <address> | list");
    process.exitCode = 2;
  }
} finally {
  await database.close();
}
