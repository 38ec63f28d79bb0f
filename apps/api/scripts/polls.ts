// pnpm polls create <poll.json> | close <poll id> | list
// The operator's poll tool, on the configured database (DATABASE_URL, else the embedded PGlite).
// poll.json: { "question": { "en": "...", "es": "..." }, "options": [{ "en": "..." }, ...],
//              "opensAt"?: ISO time (default now), "closesAt"?: ISO time (default: open until closed) }
// Texts need en; other languages (es fil id ja ko pt th) are optional and fall back to en.
// list: every poll that has opened, in the app's order, read a page at a time however many there are.
import { readFile } from "node:fs/promises";
import { ZodError } from "zod";
import { openDatabase } from "../src/db/database.js";
import { loadConfig } from "../src/env.js";
import { createPollService, type PollInput } from "../src/services/polls/polls.js";
import { createHttpIndexerClient } from "../src/services/indexer/client.js";

const [command, argument] = process.argv.slice(2);
const config = loadConfig();
const database = await openDatabase(config.database);
try {
  await database.migrate();
  const polls = createPollService({ prisma: database.prisma, indexer: createHttpIndexerClient({ baseUrl: config.indexer.url, timeoutMs: config.indexer.timeoutMs }) });
  if (command === "create" && argument) {
    const poll = await polls.create(JSON.parse(await readFile(argument, "utf8")) as PollInput);
    console.log(`created poll ${poll.id} with ${poll.options.length} options (opens ${poll.opensAt.toISOString()}, closes ${poll.closesAt?.toISOString() ?? "when closed"})`);
  } else if (command === "close" && argument) {
    console.log((await polls.close(argument)) ? `closed poll ${argument}` : `no open poll ${argument}`);
  } else if (command === "list") {
    for await (const poll of polls.everyPoll("en")) {
      console.log(`${poll.id}\t${poll.status}\t${poll.totalVotes} votes\t${poll.question}`);
      for (const option of poll.options) console.log(`    ${option.votes}\t${option.label}`);
    }
  } else {
    console.error("usage: polls create <poll.json> | close <poll id> | list");
    process.exitCode = 2;
  }
} catch (error) {
  if (!(error instanceof ZodError || error instanceof SyntaxError)) throw error;
  console.error(`invalid poll: ${error.message}`);
  process.exitCode = 1;
} finally {
  await database.close();
}
