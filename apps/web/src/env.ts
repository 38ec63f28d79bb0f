import { CHAIN_IDS, CLAIM_ACTION, deployments } from "@oro/clients";
import { INVALID, URL_PATTERN, literals, object, optional, string, withDefault, type Infer } from "./lib/schema";

/**
 * The web app's configuration, read here and nowhere else. Vite inlines `import.meta.env` at build time, so
 * every value is public: no secret belongs in this file.
 */
const schema = object({
  /** Where the API lives; empty means this origin (the dev server proxies /api). */
  VITE_API_BASE_URL: withDefault(string(/^(https?:\/\/\S+)?$/), ""),
  VITE_CHAIN_ID: optional(literals(String(CHAIN_IDS.worldChain), String(CHAIN_IDS.development))),
  VITE_RPC_URL: optional(string(URL_PATTERN)),
  VITE_WORLD_APP_ID: optional(string(/^app_[A-Za-z0-9_]+$/)),
  /** Where an unverified human learns how to verify (World ID). */
  VITE_VERIFY_URL: withDefault(string(URL_PATTERN), "https://world.org/world-id"),
  /** The partner swap mini app (token price card, swap reward). */
  VITE_SWAP_APP_URL: withDefault(string(URL_PATTERN), "https://world.org/mini-app?app_id=app_a4f7f3e62c1de0b9490a5260cb390b56"),
  /** World App's settings page for this mini app's permissions (the bell once permission was asked). */
  VITE_NOTIFICATION_SETTINGS_URL: withDefault(string(URL_PATTERN), "worldapp://settings/notifications"),
  /** Operator switch: shows the claim-errors banner even before the app notices trouble itself. */
  VITE_CLAIM_ISSUES_BANNER: withDefault(literals("true", "false"), "false"),
  /** Operator switch for A/B experiments: the numbers of those switched on, comma-separated ("2"); empty: none. */
  VITE_EXPERIMENTS: withDefault(string(/^(\d+(,\d+)*)?$/), ""),
  /** The social account the about page's follow button opens. */
  VITE_SOCIAL_URL: withDefault(string(URL_PATTERN), "https://x.com/oroworld"),
});

function parseEnv(source: Record<string, unknown>): Infer<typeof schema> {
  const parsed = schema(source);
  if (parsed !== INVALID) return parsed;
  // Name the offending variable: the build or the page fails with something a person can act on.
  const shape = { ...source };
  for (const key of Object.keys(shape)) {
    if (!key.startsWith("VITE_")) continue;
    if (schema({ ...source, [key]: undefined }) !== INVALID) throw new Error(`Invalid web configuration: ${key}`);
  }
  throw new Error("Invalid web configuration");
}

const raw = parseEnv(import.meta.env);

type OroChainId = typeof CHAIN_IDS.worldChain | typeof CHAIN_IDS.development;
const defaultChainId = import.meta.env.DEV ? CHAIN_IDS.development : CHAIN_IDS.worldChain;
export const chainId: OroChainId =
  raw.VITE_CHAIN_ID === undefined ? defaultChainId : raw.VITE_CHAIN_ID === String(CHAIN_IDS.worldChain) ? CHAIN_IDS.worldChain : CHAIN_IDS.development;

type Deployment = (typeof deployments)[keyof typeof deployments];
const knownDeployments: Partial<Record<number, Deployment>> = deployments;

/** The contracts of the configured chain, from the generated deployments; undefined until deployed there. */
export const deployment = knownDeployments[chainId];

// The local chain's URL is written here rather than read from DEV_PROFILE of @oro/clients: that object also holds
// Hardhat's public mnemonic, which would then ship in the production bundle.
const defaultRpcUrls: Record<OroChainId, string> = {
  [CHAIN_IDS.development]: "http://127.0.0.1:8545",
  [CHAIN_IDS.worldChain]: "https://worldchain-mainnet.g.alchemy.com/public",
};

export const env = {
  /** Vite's build mode ("development", "production"), shown on the debug page. */
  mode: import.meta.env.MODE,
  apiBaseUrl: raw.VITE_API_BASE_URL.replace(/\/$/, ""),
  chainId,
  rpcUrl: raw.VITE_RPC_URL ?? defaultRpcUrls[chainId],
  worldAppId: raw.VITE_WORLD_APP_ID ?? deployment?.worldId.appId,
  claimAction: deployment?.worldId.action ?? CLAIM_ACTION,
  verifyUrl: raw.VITE_VERIFY_URL,
  swapAppUrl: raw.VITE_SWAP_APP_URL,
  notificationSettingsUrl: raw.VITE_NOTIFICATION_SETTINGS_URL,
  claimIssuesBanner: raw.VITE_CLAIM_ISSUES_BANNER === "true",
  /** Experiments an operator switched on (see src/features/experiments). */
  experimentsOn: raw.VITE_EXPERIMENTS === "" ? [] : raw.VITE_EXPERIMENTS.split(",").map(Number),
  socialUrl: raw.VITE_SOCIAL_URL,
} as const;

/** Development logs monitoring events to the console. */
export const logMonitoringEvents = import.meta.env.DEV;
