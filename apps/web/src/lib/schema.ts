/**
 * Small runtime schemas for the values the app reads from outside its code (the build environment, the device's
 * storage). A schema returns the value typed, or INVALID. Kept this small on purpose: a schema library would
 * cost about 7 KiB of the 160 KiB first-load budget.
 */
export const INVALID: unique symbol = Symbol("invalid");
export type Schema<T> = (value: unknown) => T | typeof INVALID;
export type Infer<S> = S extends Schema<infer T> ? T : never;

export const boolean: Schema<boolean> = (value) => (typeof value === "boolean" ? value : INVALID);

export const integer: Schema<number> = (value) => (typeof value === "number" && Number.isInteger(value) ? value : INVALID);

export function string(pattern?: RegExp): Schema<string> {
  return (value) => (typeof value === "string" && (!pattern || pattern.test(value)) ? value : INVALID);
}

export function literals<const T extends readonly string[]>(...options: T): Schema<T[number]> {
  return (value) => (typeof value === "string" && options.includes(value) ? (value) : INVALID);
}

export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  return (value) => (value === null ? null : schema(value));
}

export function array<T>(schema: Schema<T>): Schema<T[]> {
  return (value) => {
    if (!Array.isArray(value)) return INVALID;
    const items: T[] = [];
    for (const item of value) {
      const parsed = schema(item);
      if (parsed === INVALID) return INVALID;
      items.push(parsed);
    }
    return items;
  };
}

export function object<Shape extends Record<string, Schema<unknown>>>(shape: Shape): Schema<{ [K in keyof Shape]: Infer<Shape[K]> }> {
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return INVALID;
    const record = value as Record<string, unknown>;
    const result: Record<string, unknown> = {};
    for (const [key, schema] of Object.entries(shape)) {
      const parsed = schema(record[key]);
      if (parsed === INVALID) return INVALID;
      result[key] = parsed;
    }
    return result as { [K in keyof Shape]: Infer<Shape[K]> };
  };
}

/** An optional setting: absent or empty gives the default. */
export function withDefault<T>(schema: Schema<T>, fallback: T): Schema<T> {
  return (value) => (value === undefined || value === "" ? fallback : schema(value));
}

export function optional<T>(schema: Schema<T>): Schema<T | undefined> {
  return (value) => (value === undefined || value === "" ? undefined : schema(value));
}

export const URL_PATTERN = /^(https?|worldapp):\/\/\S+$/;
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
