/**
 * Ponder's indexing store (`context.db`: find, insert with or without a conflict clause, update) over in-memory
 * tables, refusing every value PostgreSQL refuses when Ponder flushes its cache: a NOT NULL column left empty, an
 * `integer` outside ±2^31, an `int8` that is not an integer below 2^63, a `numeric(78)` of 78 digits or more, text
 * with NUL, a hex column that is not hex, an enum value not in the enum, and a plain insert of a key that exists (a
 * unique violation at the flush on PostgreSQL, at the insert on PGlite). On the real indexer each of these stops
 * indexing at that block for good; here it throws at once, naming the table and column.
 */
const COLUMNS = Symbol.for("drizzle:Columns");
const NAME = Symbol.for("drizzle:Name");

interface Column {
  name: string;
  columnType: string;
  notNull: boolean;
  primary: boolean;
  enumValues?: readonly string[];
}

export type Row = Record<string, unknown>;
type Table = object;
type Change = Row | ((row: Row) => Row);

const INT4 = 2 ** 31;
const INT8 = 2 ** 63;
const NUMERIC_78 = 10n ** 78n;

export class RefusedByPostgres extends Error {}

function columnsOf(table: Table): [string, Column][] {
  const columns = (table as Record<symbol, Record<string, Column> | undefined>)[COLUMNS];
  if (!columns) throw new Error("not a table");
  return Object.entries(columns);
}

const tableName = (table: Table) => String((table as Record<symbol, unknown>)[NAME]);

/** A value as Ponder hands it to the driver (hex lower-cased, odd lengths padded). */
function normalise(column: Column, value: unknown): unknown {
  if (column.columnType === "PgHex" && typeof value === "string") {
    return (value.length % 2 === 0 ? value : `0x0${value.slice(2)}`).toLowerCase();
  }
  return value;
}

const show = (value: unknown): string => (typeof value === "bigint" ? `${value}n` : JSON.stringify(value) ?? "undefined");

function refusal(column: Column, value: unknown): string | undefined {
  if (value === null || value === undefined) return column.notNull ? "violates not-null constraint" : undefined;
  switch (column.columnType) {
    case "PgInteger":
      return typeof value === "number" && Number.isInteger(value) && value >= -INT4 && value < INT4 ? undefined : `integer out of range: ${show(value)}`;
    case "PgBigInt53":
      return typeof value === "number" && Number.isInteger(value) && Math.abs(value) < INT8 ? undefined : `bigint out of range or not an integer: ${show(value)}`;
    case "PgEvmBigint":
      return typeof value === "bigint" && value > -NUMERIC_78 && value < NUMERIC_78 ? undefined : `numeric field overflow (precision 78): ${show(value)}`;
    case "PgHex":
      return typeof value === "string" && /^0x[0-9a-f]*$/.test(value) ? undefined : `not hex: ${show(value)}`;
    case "PgText":
      return typeof value === "string" && !value.includes("\u0000") ? undefined : `invalid byte sequence for encoding "UTF8": 0x00 in ${JSON.stringify(value)}`;
    case "PgBoolean":
      return typeof value === "boolean" ? undefined : `not a boolean: ${show(value)}`;
    case "PgEnumColumn":
      return typeof value === "string" && (column.enumValues ?? []).includes(value) ? undefined : `invalid input value for enum: ${show(value)}`;
    default:
      return `the strict store does not know column type ${column.columnType}`;
  }
}

export class StrictStore {
  private readonly tables = new Map<Table, Map<string, Row>>();

  /** Every row of a table, as stored. */
  rows(table: Table): Row[] {
    return [...(this.tables.get(table)?.values() ?? [])];
  }

  private keyOf(table: Table, values: Row): string {
    return columnsOf(table)
      .filter(([, column]) => column.primary)
      .map(([field, column]) => {
        const value = normalise(column, values[field]);
        if (value === undefined || value === null) throw new RefusedByPostgres(`${tableName(table)}: primary key ${column.name} missing`);
        return show(value);
      })
      .join("|");
  }

  private checked(table: Table, values: Row): Row {
    const row: Row = {};
    for (const [field, column] of columnsOf(table)) {
      const value = normalise(column, values[field] ?? null);
      const problem = refusal(column, value);
      if (problem) throw new RefusedByPostgres(`${tableName(table)}.${column.name}: ${problem}`);
      row[field] = value;
    }
    for (const field of Object.keys(values)) {
      if (!columnsOf(table).some(([name]) => name === field)) throw new RefusedByPostgres(`${tableName(table)} has no column ${field}`);
    }
    return row;
  }

  private rowsOf(table: Table): Map<string, Row> {
    let rows = this.tables.get(table);
    if (!rows) {
      rows = new Map<string, Row>();
      this.tables.set(table, rows);
    }
    return rows;
  }

  private apply(table: Table, key: string, existing: Row, change: Change): Row {
    const set = typeof change === "function" ? change({ ...existing }) : change;
    const next = this.checked(table, { ...existing, ...Object.fromEntries(Object.entries(set).filter(([, value]) => value !== undefined)) });
    if (this.keyOf(table, next) !== key) throw new RefusedByPostgres(`${tableName(table)}: a primary key cannot be updated`);
    this.rowsOf(table).set(key, next);
    return { ...next };
  }

  readonly db = {
    find: (table: Table, key: Row): Promise<Row | null> => {
      const row = this.rowsOf(table).get(this.keyOf(table, key));
      return Promise.resolve(row ? { ...row } : null);
    },
    insert: (table: Table) => ({
      values: (values: Row) => {
        const insertNow = (onConflict: "fail" | "nothing" | Change): Row | null => {
          const key = this.keyOf(table, values);
          const existing = this.rowsOf(table).get(key);
          if (existing) {
            if (onConflict === "fail") throw new RefusedByPostgres(`${tableName(table)}: duplicate key value violates unique constraint (${key})`);
            if (onConflict === "nothing") return null;
            return this.apply(table, key, existing, onConflict);
          }
          const row = this.checked(table, values);
          this.rowsOf(table).set(key, row);
          return { ...row };
        };
        const insert = (onConflict: "fail" | "nothing" | Change): Promise<Row | null> => {
          try {
            return Promise.resolve(insertNow(onConflict));
          } catch (error) {
            return Promise.reject(error instanceof Error ? error : new Error(String(error)));
          }
        };
        return {
          onConflictDoNothing: () => insert("nothing"),
          onConflictDoUpdate: (change: Change) => insert(change),
          then: <T>(onFulfilled: (row: Row | null) => T, onRejected?: (error: unknown) => T) => insert("fail").then(onFulfilled, onRejected),
        };
      },
    }),
    update: (table: Table, key: Row) => ({
      set: (change: Change): Promise<Row> => {
        const rowKey = this.keyOf(table, key);
        const existing = this.rowsOf(table).get(rowKey);
        if (!existing) return Promise.reject(new RefusedByPostgres(`${tableName(table)}: no row to update (${rowKey})`));
        try {
          return Promise.resolve(this.apply(table, rowKey, existing, change));
        } catch (error) {
          return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
      },
    }),
  };
}
