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

export class SwapImportError extends Error {
  override name = "SwapImportError";
}

function normaliseKeys(raw: Record<string, unknown>): Record<string, unknown> {
  const keys: Record<string, string> = { volume_usd: "volumeUsd", volumeusd: "volumeUsd", swapped_at: "swappedAt", swappedat: "swappedAt" };
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [keys[key.toLowerCase()] ?? key, value === "" ? undefined : value]));
}

function parseCsv(text: string): Record<string, unknown>[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const header = lines.shift()?.split(",").map((cell) => cell.trim());
  if (!header) return [];
  return lines.map((line) => Object.fromEntries(line.split(",").map((cell, i) => [header[i] ?? `column${i}`, cell.trim()])));
}

/** Parses a file's text; every bad record is reported (with its position), none is imported then. */
export function parseSwapRecords(text: string, format: "json" | "csv"): SwapRecord[] {
  let rows: unknown;
  if (format === "csv") {
    rows = parseCsv(text);
  } else {
    try {
      rows = JSON.parse(text) as unknown;
    } catch (error) {
      throw new SwapImportError(`not JSON: ${(error as Error).message}`);
    }
    if (rows && typeof rows === "object" && !Array.isArray(rows) && "records" in rows) rows = rows.records;
  }
  if (!Array.isArray(rows)) throw new SwapImportError("expected an array of records");
  const problems: string[] = [];
  const records: SwapRecord[] = [];
  rows.forEach((row, index) => {
    const parsed = recordSchema.safeParse(row && typeof row === "object" ? normaliseKeys(row as Record<string, unknown>) : row);
    if (parsed.success) records.push(parsed.data);
    else problems.push(`record ${index + 1}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "record"} ${issue.message}`).join(", ")}`);
  });
  if (problems.length > 0) throw new SwapImportError(problems.join("\n"));
  return records;
}

/** Imports records; a record id already imported is left as it is. Returns how many were new. */
export async function importSwapRecords(prisma: PrismaClient, records: SwapRecord[]): Promise<{ imported: number; skipped: number }> {
  let imported = 0;
  for (let start = 0; start < records.length; start += 1_000) {
    const chunk = records.slice(start, start + 1_000);
    const { count } = await prisma.partnerSwap.createMany({ data: chunk, skipDuplicates: true });
    imported += count;
  }
  return { imported, skipped: records.length - imported };
}

/** Marks an address's swap reward paid (`Claimed`); false when it already was. */
export async function markSwapRewardClaimed(prisma: PrismaClient, address: string, note?: string): Promise<boolean> {
  const lower = address.toLowerCase();
  if (await prisma.swapRewardClaim.findUnique({ where: { address: lower } })) return false;
  await prisma.swapRewardClaim.create({ data: { address: lower, note: note ?? null } });
  return true;
}
