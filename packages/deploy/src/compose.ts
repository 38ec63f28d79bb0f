import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

/** The repository root: docker-compose.yml, .env.example and deploy/ live there. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export const readRepoFile = (relative: string): string => readFileSync(path.join(repoRoot, relative), "utf8");

/** `NAME=value` lines of an env file (comments and blank lines skipped; no quoting, as in our examples). */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match?.[1] !== undefined) values[match[1]] = match[2] ?? "";
  }
  return values;
}

/** Every name an env file documents, set (`NAME=`) or shown commented out (`# NAME=`). */
export function documentedNames(text: string): Set<string> {
  return new Set([...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1] ?? ""));
}

export class MissingVariable extends Error {
  override name = "MissingVariable";
}

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Compose's interpolation: ${VAR}, $VAR, ${VAR:-default}, ${VAR-default}, ${VAR:?message}, ${VAR?message}, $$.
 * An unset required variable throws with compose's own message. Defaults hold no nested references here.
 */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(REFERENCE, (whole, braced: string | undefined, operator: string | undefined, argument: string | undefined, bare: string | undefined) => {
    if (whole === "$$") return "$";
    const name = braced ?? bare ?? "";
    const value = env[name];
    const unset = operator?.startsWith(":") ? value === undefined || value === "" : value === undefined;
    if (operator?.endsWith("?") && unset) throw new MissingVariable(`${name}: ${argument ?? "required"}`);
    if (operator?.endsWith("-") && unset) return argument ?? "";
    return value ?? "";
  });
}

/** Names the compose file refers to, and which of them it requires (${VAR:?...}). */
export function referencedVariables(text: string): { all: Set<string>; required: Set<string> } {
  const all = new Set<string>();
  const required = new Set<string>();
  for (const match of text.matchAll(REFERENCE)) {
    const name = match[1] ?? match[4];
    if (name === undefined) continue;
    all.add(name);
    if (match[2]?.endsWith("?")) required.add(name);
  }
  return { all, required };
}

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string; target?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  ports?: unknown[];
  restart?: string;
  read_only?: boolean;
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
  logging?: unknown;
  healthcheck?: { test: string[] | string };
  deploy?: {
    replicas?: number;
    endpoint_mode?: string;
    resources?: { limits?: { memory?: string } };
    update_config?: Record<string, unknown>;
    rollback_config?: Record<string, unknown>;
  };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  secrets?: Record<string, unknown>;
  volumes?: Record<string, unknown>;
}

/** The compose file as `docker compose` sees it with `env`: parsed (with YAML merge keys), then each string interpolated. */
export function loadCompose(env: Record<string, string | undefined>): ComposeFile {
  const interpolateAll = (value: unknown): unknown => {
    if (typeof value === "string") return interpolate(value, env);
    if (Array.isArray(value)) return value.map(interpolateAll);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, interpolateAll(inner)]));
    }
    return value;
  };
  return interpolateAll(parse(readRepoFile("docker-compose.yml"), { merge: true })) as ComposeFile;
}

/** Compose does not interpolate comments; drop whole-line comments so their prose never counts. */
export function stripComments(text: string): string {
  return text.split("\n").filter((line) => !/^\s*#/.test(line)).join("\n");
}
