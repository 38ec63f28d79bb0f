import { Prisma, type PrismaClient } from "../generated/prisma/client.js";

/** Rows a purge deletes a statement: its locks and WAL come a batch at a time, not an hour's expiry at once. */
export const PURGE_BATCH = 10_000;

/**
 * One statement of `deleteInBatches`: at most `batch` rows of `table` that `where` picks (through its index). The rows
 * are deleted by their physical address (a TID scan): `key IN (subquery)` let PostgreSQL read the whole table to join
 * each batch, and a row updated meanwhile has a new address, so it is left alone rather than deleted unchecked.
 */
export function batchDeleteStatement(table: string, where: Prisma.Sql, batch: number): Prisma.Sql {
  const from = Prisma.raw(`"${table.replace(/"/g, '""')}"`);
  return Prisma.sql`DELETE FROM ${from} WHERE "ctid" = ANY (ARRAY(SELECT "ctid" FROM ${from} WHERE ${where} LIMIT ${batch}))`;
}

/** Deletes the rows of `table` that `where` picks, `batch` a statement until a statement deletes fewer; returns how many. */
export async function deleteInBatches(prisma: Pick<PrismaClient, "$executeRaw">, table: string, where: Prisma.Sql, batch = PURGE_BATCH): Promise<number> {
  if (!Number.isInteger(batch) || batch < 1) throw new RangeError(`a batch is a positive number of rows, not ${batch}`);
  let deleted = 0;
  for (;;) {
    const count = await prisma.$executeRaw(batchDeleteStatement(table, where, batch));
    deleted += count;
    if (count < batch) return deleted;
  }
}
