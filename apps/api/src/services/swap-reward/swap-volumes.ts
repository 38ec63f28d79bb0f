import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { TokenParser, Tokenizer, TokenType } from "@streamparser/json";
import { isAddress } from "viem";
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client.js";

/**
 * Partner swap records, as the partner's files carry them: JSON (an array, or `{ "records": [...] }`) or
 * CSV with a header row. Fields: `id` (the partner's record id), `address`, `volumeUsd` (also `volume_usd`),
 * and optionally `swappedAt` (`swapped_at`, ISO 8601).
 */
export interface SwapRecord {
  id: string;
  address: string;
  volumeUsd: string;
  swappedAt: Date | null;
}

const recordSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().min(1).max(200)),
  address: z.string().trim().refine((value) => isAddress(value, { strict: false }), { message: "not a 0x address" }).transform((value) => value.toLowerCase()),
  volumeUsd: z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().regex(/^\d+(\.\d{1,6})?$/, { message: "not a non-negative USD amount with at most 6 decimals" })),
  swappedAt: z.iso.datetime({ offset: true }).transform((value) => new Date(value)).nullish().transform((value) => value ?? null),
});

/** Records a statement writes: what an import holds in memory at most. */
const IMPORT_BATCH = 1_000;

export type SwapFileFormat = "json" | "csv";

/** A record of a partner file as read: the record, or what is wrong with it (`record <position>: ...`). */
export type SwapFileRow = { record: SwapRecord } | { problem: string };

export class SwapImportError extends Error {
  override name = "SwapImportError";
}

function normaliseKeys(raw: Record<string, unknown>): Record<string, unknown> {
  const keys: Record<string, string> = { volume_usd: "volumeUsd", volumeusd: "volumeUsd", swapped_at: "swappedAt", swappedat: "swappedAt" };
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [keys[key.toLowerCase()] ?? key, value === "" ? undefined : value]));
}

/** The rows of a CSV file with a header row, a line at a time (blank lines are skipped). */
async function* csvRows(file: Readable): AsyncGenerator<Record<string, unknown>> {
  let header: string[] | undefined;
  for await (const line of createInterface({ input: file, crlfDelay: Infinity })) {
    if (line.trim() === "") continue;
    const cells = line.split(",").map((cell) => cell.trim());
    if (!header) {
      header = cells;
      continue;
    }
    const columns = header;
    yield Object.fromEntries(cells.map((cell, i) => [columns[i] ?? `column${i}`, cell]));
  }
}

/**
 * The records of a JSON file (an array, or `{ "records": [...] }`), each as soon as the text that ends it is read:
 * memory holds one chunk of the file and the records it ended, whatever the file's size.
 */
async function* jsonRows(file: Readable): AsyncGenerator<unknown> {
  const tokenizer = new Tokenizer();
  const ended: unknown[] = [];
  let parser: TokenParser | undefined;
  // The file's shape, seen in its tokens: its first one, and in an object the first token of each member's value.
  let root: TokenType | undefined;
  let depth = 0;
  let member: unknown;
  let valueNext = false;
  let recordsAreArray = false;
  tokenizer.onToken = (info) => {
    if (!parser) {
      root = info.token;
      parser = new TokenParser({ paths: [root === TokenType.LEFT_BRACKET ? "$.*" : "$.records.*"], keepStack: false });
      parser.onValue = ({ value, parent }) => {
        // Elements of an array only (a "records" object's members are no records).
        if (Array.isArray(parent)) ended.push(value);
      };
    } else if (root === TokenType.LEFT_BRACE && depth === 1) {
      // A member of the root object: its name, a colon, then its value.
      if (valueNext) {
        if (member === "records") recordsAreArray = info.token === TokenType.LEFT_BRACKET;
      } else if (info.token === TokenType.STRING) {
        member = info.value;
      }
      valueNext = !valueNext && info.token === TokenType.COLON;
    }
    if (info.token === TokenType.LEFT_BRACE || info.token === TokenType.LEFT_BRACKET) depth += 1;
    if (info.token === TokenType.RIGHT_BRACE || info.token === TokenType.RIGHT_BRACKET) depth -= 1;
    parser.write(info);
  };
  tokenizer.onEnd = () => {
    if (parser && !parser.isEnded) parser.end();
  };
  // Whatever the parser throws says how the text is not JSON (a read error of the file comes from the loop).
  const parse = (step: () => void) => {
    try {
      step();
    } catch (error) {
      throw new SwapImportError(`not JSON: ${(error as Error).message}`);
    }
  };
  for await (const chunk of file) {
    parse(() => tokenizer.write(chunk as string | Buffer));
    yield* ended.splice(0);
  }
  parse(() => tokenizer.end());
  yield* ended.splice(0);
  if (!parser) throw new SwapImportError("not JSON: the file is empty");
  if (root !== TokenType.LEFT_BRACKET && !recordsAreArray) throw new SwapImportError("expected an array of records");
}

/**
 * The records of a partner file in file order, read as a stream, each checked: a bad one is a problem naming its
 * position. A file that is no list of records at all throws SwapImportError.
 */
export async function* readSwapFile(file: Readable, format: SwapFileFormat): AsyncGenerator<SwapFileRow> {
  let position = 0;
  for await (const row of format === "csv" ? csvRows(file) : jsonRows(file)) {
    position += 1;
    const parsed = recordSchema.safeParse(row && typeof row === "object" ? normaliseKeys(row as Record<string, unknown>) : row);
    if (parsed.success) yield { record: parsed.data };
    else yield { problem: `record ${position}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "record"} ${issue.message}`).join(", ")}` };
  }
}

/** Imports records; a record id already imported is left as it is. Returns how many were new. */
export async function importSwapRecords(prisma: PrismaClient, records: SwapRecord[]): Promise<{ imported: number; skipped: number }> {
  let imported = 0;
  for (let start = 0; start < records.length; start += IMPORT_BATCH) {
    const chunk = records.slice(start, start + IMPORT_BATCH);
    const { count } = await prisma.partnerSwap.createMany({ data: chunk, skipDuplicates: true });
    imported += count;
  }
  return { imported, skipped: records.length - imported };
}

/**
 * Imports a partner file whole or not at all, reading it twice as a stream (`open` opens it each time): the first
 * reading reports every problem as it is found (`report`) and imports nothing if there is any (then the answer is
 * undefined); the second writes IMPORT_BATCH records a statement. Memory holds one batch, whatever the file's size.
 */
export async function importSwapFile(
  prisma: PrismaClient,
  open: () => Readable,
  format: SwapFileFormat,
  report: (problem: string) => void,
): Promise<{ records: number; imported: number; skipped: number } | undefined> {
  let problems = 0;
  try {
    for await (const row of readSwapFile(open(), format)) {
      if ("problem" in row) {
        problems += 1;
        report(row.problem);
      }
    }
  } catch (error) {
    if (!(error instanceof SwapImportError)) throw error;
    problems += 1;
    report(error.message);
  }
  if (problems > 0) return undefined;

  let records = 0;
  let imported = 0;
  let batch: SwapRecord[] = [];
  const write = async () => {
    imported += (await importSwapRecords(prisma, batch)).imported;
    batch = [];
  };
  try {
    for await (const row of readSwapFile(open(), format)) {
      if ("problem" in row) throw new SwapImportError(row.problem);
      records += 1;
      batch.push(row.record);
      if (batch.length === IMPORT_BATCH) await write();
    }
  } catch (error) {
    if (!(error instanceof SwapImportError)) throw error;
    // Only a file changed since the first reading gets here, and the batches before it are imported.
    throw new Error(`the file changed during the import (${records - batch.length} records written): ${error.message}`, { cause: error });
  }
  await write();
  return { records, imported, skipped: records - imported };
}

/** Marks an address's swap reward paid (`Claimed`); false when it already was. */
export async function markSwapRewardClaimed(prisma: PrismaClient, address: string, note?: string): Promise<boolean> {
  const lower = address.toLowerCase();
  if (await prisma.swapRewardClaim.findUnique({ where: { address: lower } })) return false;
  await prisma.swapRewardClaim.create({ data: { address: lower, note: note ?? null } });
  return true;
}
