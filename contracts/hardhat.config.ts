import { subtask } from "hardhat/config";
import { TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD } from "hardhat/builtin-tasks/task-names";
import type { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-toolbox-viem";
import { CHAIN_IDS, DEV_PROFILE } from "@oro/clients";
import "./tasks";
import { env } from "./env";

const SOLC_VERSION = "0.8.28";

// Compile offline with the solc-js build that the `solc` npm package carries, instead of downloading one.
subtask(TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD, async (args: { solcVersion: string }, _hre, runSuper) => {
  if (args.solcVersion !== SOLC_VERSION) return (await runSuper(args)) as unknown;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require("solc") as { version(): string };
  return {
    compilerPath: require.resolve("solc/soljson.js"),
    isSolcJs: true,
    version: args.solcVersion,
    longVersion: solc.version(),
  };
});



const config: HardhatUserConfig = {
  solidity: {
    version: SOLC_VERSION,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: "cancun",
    },
  },
  // solidity-coverage compiles instrumented contracts over the configured artifacts; kept apart, a lint or a build
  // running beside the tests never reads half-rewritten artifacts, and the real build is not redone afterwards.
  paths: env.coverageRun ? { artifacts: "coverage-build/artifacts", cache: "coverage-build/cache" } : {},
  defaultNetwork: "hardhat",
  networks: {
    hardhat: {
      chainId: DEV_PROFILE.chainId,
      // Initial balances for the documented development accounts (the standard test mnemonic).
      mining: { auto: true },
    },
    localhost: {
      url: env.localRpcUrl,
      chainId: DEV_PROFILE.chainId,
    },
    worldchain: {
      url: env.worldChainRpcUrl,
      chainId: CHAIN_IDS.worldChain,
      accounts: env.deployerPrivateKey ? [env.deployerPrivateKey] : [],
    },
    "worldchain-sepolia": {
      url: env.worldChainSepoliaRpcUrl,
      chainId: 4801,
      accounts: env.deployerPrivateKey ? [env.deployerPrivateKey] : [],
    },
  },
  mocha: {
    timeout: 120_000,
  },
  gasReporter: {
    enabled: false,
  },
};

export default config;
