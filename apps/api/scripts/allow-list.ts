// pnpm allow-list add <address> [note] | add --human <nullifier hash> [note] | remove <address | nullifier hash> | list
// Keeps the referral allow-list of the configured database (DATABASE_URL, else the embedded PGlite). An entry
// names a human; `add <address>` asks the configured indexer (INDEXER_URL) which humans have minted to the wallet.
import { openDatabase } from "../src/db/database.js";
import { ConfigError, loadConfig } from "../src/env.js";
import { AllowListInputError, createAllowList, parseHuman, parseWallet, parseWalletOrHuman, type AllowListEntry } from "../src/services/referrals/allow-list.js";
import { createHttpIndexerClient } from "../src/services/indexer/client.js";

const USAGE = "usage: allow-list add <address> [note] | add --human <nullifier hash> [note] | remove <address | nullifier hash> | list";

type Action =
  | { kind: "add-wallet"; wallet: string; note: string | undefined }
  | { kind: "add-human"; human: string; note: string | undefined }
  | { kind: "remove"; target: string }
  | { kind: "list" };

/** Reads the command line; bad input is an AllowListInputError, before anything is opened. */
function parse(args: string[]): Action {
  const [command, first, ...rest] = args;
  const noteOf = (words: string[]) => words.join(" ").trim() || undefined;
  if (command === "add" && first === "--human") {
    const [human, ...note] = rest;
    if (!human) throw new AllowListInputError(`add --human needs a nullifier hash; ${USAGE}`);
    return { kind: "add-human", human: parseHuman(human), note: noteOf(note) };
  }
  if (command === "add" && first) return { kind: "add-wallet", wallet: parseWallet(first), note: noteOf(rest) };
  if (command === "remove" && first && rest.length === 0) {
    parseWalletOrHuman(first);
    return { kind: "remove", target: first };
  }
  if (command === "list" && first === undefined) return { kind: "list" };
  throw new AllowListInputError(command ? `"${args.join(" ")}" is not an allow-list command; ${USAGE}` : USAGE);
}

const describe = (entry: AllowListEntry) => `${entry.nullifierHash ? `human ${entry.nullifierHash}` : entry.address ?? "?"}${entry.note ? ` (${entry.note})` : ""}`;

async function run(action: Action): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    const allowList = createAllowList(database.prisma);
    if (action.kind === "add-wallet") {
      const indexer = createHttpIndexerClient({ baseUrl: config.indexer.url, timeoutMs: config.indexer.timeoutMs });
      const added = await allowList.addWallet(action.wallet, action.note, indexer);
      if (added.kind === "human") {
        console.log(`allow-listed ${describe(added.entry)}, the human behind ${added.wallet}`);
      } else {
        const why =
          added.why === "no-mints"
            ? "no human has minted to this wallet yet (it is eligible anyway)"
            : `the indexer (${config.indexer.url}) did not answer, so the humans behind it are unknown`;
        console.log(`allow-listed ${describe(added.entry)} as an address-only entry: ${why}; the first human the API finds behind it gets the exemption`);
      }
    } else if (action.kind === "add-human") {
      console.log(`allow-listed ${describe(await allowList.addHuman(action.human, action.note))}`);
    } else if (action.kind === "remove") {
      const removed = await allowList.remove(action.target);
      console.log(removed === 0 ? `${action.target} was not on the allow-list` : `removed ${removed} ${removed === 1 ? "entry" : "entries"} of ${action.target}`);
    } else {
      console.log("human\twallet\tcreated at\tnote");
      for await (const entry of allowList.entries()) {
        console.log(`${entry.nullifierHash ?? "(address-only)"}\t${entry.address ?? "-"}\t${entry.createdAt.toISOString()}\t${entry.note ?? ""}`);
      }
    }
  } finally {
    await database.close();
  }
}

try {
  await run(parse(process.argv.slice(2)));
} catch (error) {
  if (error instanceof AllowListInputError) {
    console.error(error.message);
    process.exitCode = 2;
  } else if (error instanceof ConfigError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
