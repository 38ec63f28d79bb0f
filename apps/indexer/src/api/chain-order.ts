import { db } from "ponder:api";
import { asc, gt, type PgColumn, type PgTable } from "ponder";
import type { ChainCursor } from "./types";

/** Where a page of a list in chain order starts (after an earlier answer's cursor, or at the first event) and its size. */
export interface ChainOrderPage {
  after: ChainCursor | null;
  limit: number;
}

/**
 * A page of `table`'s rows in chain order, after `after`, by `cursor`: the column holding each row's event id, which
 * sorts as the chain does (GET /mints, GET /referral-payouts; the API follows them).
 */
export async function rowsAfterCursor<Table extends PgTable>(table: Table, cursor: PgColumn, { after, limit }: ChainOrderPage): Promise<Table["$inferSelect"][]> {
  const source: PgTable = table;
  return db
    .select()
    .from(source)
    .where(after === null ? undefined : gt(cursor, after))
    .orderBy(asc(cursor))
    .limit(limit);
}
