import fastJson from "fast-json-stringify";
import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { z } from "zod";
import { isFrozenAnswer } from "../lib/frozen-answer.js";

/**
 * Answers are written by fast-json-stringify (Fastify's own serializer) from each response's zod schema turned
 * into JSON Schema: like zod's encoding it writes the declared fields only, so nothing undeclared leaves the
 * API, and it lifted the cached routes' throughput by about a third in the benchmark (zod validated every
 * answer before writing it). The handlers' return types are checked against the same schemas at compile
 * time. A schema that JSON Schema cannot express falls back to zod.
 */
/**
 * zod closes every object (`additionalProperties: false`). fast-json-stringify writes only declared fields
 * anyway, but checks `anyOf` branches (a nullable object) by validation, where an undeclared field would
 * match no branch: the closing is dropped, the stripping stays.
 */
function openObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openObjects);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).filter(([key, value]) => !(key === "additionalProperties" && value === false)).map(([key, value]) => [key, openObjects(value)]),
  );
}

type JsonSchema = { [key: string]: unknown };
const isSchema = (value: unknown): value is JsonSchema => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * A nullable object comes from zod as `anyOf: [object, null]`, which fast-json-stringify decides per answer by
 * running a validator over the value; written `type: ["object", "null"]` it is a type check (the earnings answer:
 * 8 -> 6 us to write). Other unions stay as they are.
 */
function nullableObjectsAsTypes(root: JsonSchema): JsonSchema {
  const definitions = isSchema(root.definitions) ? root.definitions : {};
  const resolve = (schema: JsonSchema): JsonSchema | undefined => {
    const ref = schema.$ref;
    if (typeof ref !== "string") return schema;
    const target = ref.startsWith("#/definitions/") ? definitions[ref.slice("#/definitions/".length)] : undefined;
    return isSchema(target) ? resolve(target) : undefined;
  };
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isSchema(node)) return node;
    const branches = node.anyOf;
    if (Array.isArray(branches) && branches.length === 2) {
      const nullIndex = branches.findIndex((branch) => isSchema(branch) && branch.type === "null" && Object.keys(branch).length === 1);
      const other = nullIndex >= 0 && isSchema(branches[1 - nullIndex]) ? resolve(branches[1 - nullIndex] as JsonSchema) : undefined;
      if (other && other.type === "object") {
        const { anyOf: _anyOf, ...rest } = node;
        return visit({ ...other, ...rest, type: ["object", "null"] });
      }
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]));
  };
  return visit(root) as JsonSchema;
}

export const serializerCompiler: typeof zodSerializerCompiler = (input) => {
  const schema = input.schema as unknown;
  if (schema instanceof z.ZodType) {
    try {
      const json = z.toJSONSchema(schema, { io: "output", target: "draft-7", unrepresentable: "throw" });
      const stringify = fastJson(nullableObjectsAsTypes(openObjects(json) as JsonSchema) as unknown as Parameters<typeof fastJson>[0]);
      // A frozen answer (lib/frozen-answer.ts) is written once and kept, per route and status (another route's schema
      // may write other fields of the same answer), as UTF-8 bytes: Fastify sends a Buffer as it is, where a string is
      // measured (Buffer.byteLength) and encoded again on every send.
      const written = new WeakMap<object, Buffer>();
      return (data: unknown) => {
        if (typeof data !== "object" || data === null || !isFrozenAnswer(data)) return stringify(data);
        let bytes = written.get(data);
        if (bytes === undefined) {
          bytes = Buffer.from(stringify(data));
          written.set(data, bytes);
        }
        // Fastify's reply takes a serializer's Buffer as the payload (reply.js onSendEnd); its type names strings only.
        return bytes as unknown as string;
      };
    } catch {
      // falls through to zod
    }
  }
  return zodSerializerCompiler(input);
};
