import type { FastifyInstance } from "fastify";

/**
 * Requests made from the API's own OpenAPI document (what `app.swagger()` publishes), so that a new route is
 * covered by the fuzz suite and the authorization matrix without editing them.
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  example?: unknown;
  default?: unknown;
  $ref?: string;
}

export interface Parameter {
  name: string;
  in: "query" | "path" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The path as Fastify routes it, e.g. /api/polls/{id}/vote. */
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
  bodyRequired: boolean;
  /** Declared response status codes. */
  responses: number[];
  /** Routes that need a session (declared security without an anonymous `{}` alternative). */
  needsSession: boolean;
  /** Routes that accept a session but also answer without one. */
  sessionOptional: boolean;
}

interface OpenApiOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
  security?: Record<string, string[]>[];
}

export function operationsOf(app: FastifyInstance): Operation[] {
  const document = app.swagger() as unknown as { paths: Record<string, Record<string, OpenApiOperation>> };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const upper = method.toUpperCase();
      if (upper !== "GET" && upper !== "POST" && upper !== "PUT" && upper !== "DELETE") continue;
      const security = operation.security ?? [];
      const anonymousAllowed = security.some((requirement) => Object.keys(requirement).length === 0);
      operations.push({
        method: upper,
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.["application/json"]?.schema,
        bodyRequired: operation.requestBody?.required === true,
        responses: Object.keys(operation.responses ?? {}).map(Number),
        needsSession: security.length > 0 && !anonymousAllowed,
        sessionOptional: security.length > 0 && anonymousAllowed,
      });
    }
  }
  return operations;
}

/** A small seeded generator (mulberry32): the same seed gives the same requests. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(0, items.length - 1)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  };
  return { next, int, pick, chance: (p: number) => next() < p };
}
export type Random = ReturnType<typeof seededRandom>;

const ALNUM = "ABCDEFGHJKMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

export interface ValueContext {
  random: Random;
  /** The address to use for userAddress (the signed-in user's, or the victim's). */
  userAddress: string;
  /** Known ids for path parameters (e.g. a poll id). */
  ids: Record<string, string>;
}

function randomHex(random: Random, digits: number): string {
  let out = "";
  for (let i = 0; i < digits; i++) out += "0123456789abcdef"[random.int(0, 15)];
  return out;
}

function uuid(random: Random): string {
  const hex = randomHex(random, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A value the schema accepts (as a query-string text for scalars in query/path, as JSON in bodies). */
export function validValue(schema: JsonSchema, name: string, context: ValueContext): unknown {
  const { random } = context;
  if (name === "userAddress") return context.userAddress;
  if (schema.anyOf?.[0]) return validValue(schema.anyOf[0], name, context);
  if (schema.enum && schema.enum.length > 0) return random.pick(schema.enum);
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  // A body whose fields depend on each other (a move carries its 3.0 proof) declares a whole valid example.
  if (type === "object" && schema.example !== undefined) return schema.example;
  if (type === "array") {
    const items = schema.items ?? { type: "string" };
    const count = random.int(Math.max(1, schema.minItems ?? 1), Math.min(3, schema.maxItems ?? 3));
    return Array.from({ length: count }, () => validValue(items, name, context));
  }
  if (type === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      if (schema.required?.includes(key) || random.chance(0.5)) out[key] = validValue(property, key, context);
    }
    return out;
  }
  if (type === "integer" || type === "number") return random.int(schema.minimum ?? 0, Math.min(schema.maximum ?? 1_000, (schema.minimum ?? 0) + 1_000));
  if (type === "boolean") return random.chance(0.5);
  if (context.ids[name]) return context.ids[name];
  if (schema.format === "uuid") return uuid(random);
  if (schema.format === "email") return `fuzz${random.int(0, 1e6)}@example.com`;
  if (schema.pattern === "^0x[0-9a-fA-F]{40}$") return `0x${randomHex(random, 40)}`;
  if (schema.example !== undefined && typeof schema.example === "string") return schema.example;
  // 8 to 12 letters and digits fit most patterns (nonces, codes) within the declared lengths.
  const min = Math.min(Math.max(schema.minLength ?? 8, 8), schema.maxLength ?? 8);
  const length = random.int(min, Math.max(min, Math.min(schema.maxLength ?? 12, 12)));
  let text = "";
  for (let i = 0; i < length; i++) text += ALNUM[random.int(0, ALNUM.length - 1)];
  return text;
}

/** Strings no schema should let through into a 5xx: huge, unicode, control characters, injections. */
export function hostileString(random: Random): string {
  return random.pick([
    "",
    " ",
    "\u0000",
    "abc\u0000def",
    "\u001f\u007f",
    "\r\n\r\nX-Injected: 1",
    "%00",
    "x".repeat(random.int(1_000, 20_000)),
    "😀".repeat(random.int(1, 300)),
    "\u202e\u0301\u200b",
    "' OR 1=1 --",
    "${jndi:ldap://x}",
    "0x",
    `0x${"f".repeat(40)}`,
    `0x${"0".repeat(40)}`,
    "1e1",
    "0x10",
    " 5",
    "-1",
    "NaN",
    "9".repeat(400),
    "[object Object]",
    "__proto__",
    "true",
    "null",
    "\ud800",
  ]);
}

/** Percent-encodes, and writes a lone surrogate as the invalid UTF-8 it would be (%ED%A0%80), which servers must survive. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value.replace(/[\ud800-\udfff]/g, "\u0000").split("\u0000").map(encodeURIComponent).join("%ED%A0%80");
  }
}

/** Builds a URL from a path template and a query (arrays repeat the key; `duplicate` repeats one key). */
export function buildUrl(path: string, pathValues: Record<string, string>, query: [string, string][]): string {
  const filled = path.replace(/\{(\w+)\}/g, (_match, key: string) => encode(pathValues[key] ?? "x"));
  if (query.length === 0) return filled;
  return `${filled}?${query.map(([key, value]) => `${encode(key)}=${encode(value)}`).join("&")}`;
}

/** The valid query and path of an operation. */
export function validRequestParts(operation: Operation, context: ValueContext) {
  const query: [string, string][] = [];
  const pathValues: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const value = validValue(parameter.schema, parameter.name, context);
    if (parameter.in === "path") pathValues[parameter.name] = String(value);
    if (parameter.in !== "query") continue;
    if (!parameter.required && context.random.chance(0.3)) continue;
    if (Array.isArray(value)) for (const item of value) query.push([parameter.name, String(item)]);
    else query.push([parameter.name, String(value)]);
  }
  const body = operation.body ? validValue(operation.body, "body", context) : undefined;
  return { query, pathValues, body };
}
