import { inspect } from "node:util";
import { CHAIN_IDS, deployments } from "@oro/clients";
import { loadEnv, type Plugin } from "vite";

/**
 * A production build is what World App users get: it must talk to World Chain, where ORO is deployed. A build
 * for the development chain (mock World ID router, public keys), or for a chain @oro/clients has no deployment
 * for, is refused, unless ORO_REHEARSAL=true asks for a production-mode build of the local rehearsal stack.
 */
export const REHEARSAL_FLAG = "ORO_REHEARSAL";

/** The build-time variables this check reads (the deployment's compose file passes each to the web image). */
export const PRODUCTION_BUILD_VARIABLES = ["VITE_CHAIN_ID", REHEARSAL_FLAG] as const;

class ProductionBuildRefusal extends Error {
  override name = "ProductionBuildRefusal";
  // Vite prints a failed build with util.inspect: show the one line, not a stack trace.
  [inspect.custom](): string {
    return this.message;
  }
}

/** Why a production build with these variables must not be made, or undefined when it may. */
export function productionBuildRefusal(
  variables: Record<string, string | undefined>,
  known: Partial<Record<number, unknown>> = deployments,
): string | undefined {
  const rehearsal = variables[REHEARSAL_FLAG] === "true";
  // The same default as src/env.ts: a production build targets World Chain unless told otherwise.
  const chainId = Number(variables.VITE_CHAIN_ID?.trim() || CHAIN_IDS.worldChain);
  if (chainId === CHAIN_IDS.development && !rehearsal) {
    return `web build refused: VITE_CHAIN_ID=${chainId} is the development chain (mock World ID router, public keys); ` +
      `build for World Chain (${CHAIN_IDS.worldChain}), or set ${REHEARSAL_FLAG}=true for a local rehearsal`;
  }
  if (known[chainId] === undefined) {
    return `web build refused: @oro/clients has no ORO deployment for chain ${chainId}; deploy the contracts there ` +
      `and run pnpm generate first` + (rehearsal ? "" : `, or set ${REHEARSAL_FLAG}=true with VITE_CHAIN_ID=${CHAIN_IDS.development} for a local rehearsal`);
  }
  return undefined;
}

/** Fails `vite build` in production mode with the refusal's one line. */
export function productionGuard(): Plugin {
  return {
    name: "oro-production-guard",
    apply: "build",
    configResolved(config) {
      if (!config.isProduction) return;
      const refusal = productionBuildRefusal(loadEnv(config.mode, config.envDir || config.root, ""));
      if (refusal) throw new ProductionBuildRefusal(refusal);
    },
  };
}

/**
 * Defines __DEVELOPMENT_BUILD__, which src/lib/world-app/install.ts tests to keep the development wallet out of a
 * production build. A literal, as Vite's import.meta.env.DEV (false when NODE_ENV is production, which Vite has set
 * by the time config hooks run). A literal in the module that holds the dynamic imports is what lets the bundler drop
 * them and their chunks; the same value imported from src/env.ts is folded only after the chunks are made.
 */
export function developmentBuildFlag(): Plugin {
  return {
    name: "oro-development-build-flag",
    config: () => ({ define: { __DEVELOPMENT_BUILD__: JSON.stringify(process.env.NODE_ENV !== "production") } }),
  };
}
