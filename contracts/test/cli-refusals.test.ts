import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import hre from "hardhat";
import { reset } from "@nomicfoundation/hardhat-network-helpers";
import { TASK_NODE_CREATE_SERVER } from "hardhat/builtin-tasks/task-names";
import { getAddress } from "viem";
import { deployAll } from "../deploy/deploy";
import { DEPLOYMENTS_DIR, WORLD_CHAIN_WORLD_ID_ROUTER, WORLD_CHAIN_WORLD_ID_VERIFIER, useDeploymentsDir } from "../deploy/deployment";

// The owner's tasks and the deploy as the owner runs them: `hardhat <task>` processes. A refusal is one line on
// stderr and exit code 1; Hardhat's stack trace only with --show-stack-traces.

const packageDir = path.resolve(__dirname, "..");
const hardhatBin = path.join(packageDir, "node_modules", ".bin", "hardhat");
/** Hardhat account #5: a key with no role in the deployment. */
const STRANGER_KEY = "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba";
/** A key no development profile knows. */
const OPERATOR_KEY = `0x${"5a".repeat(32)}`;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runHardhat(args: string[], extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  // Whatever the parent was started with (coverage, a deployer key) must not leak into the owner's command.
  delete env.SOLIDITY_COVERAGE;
  for (const name of ["DEPLOYER_PRIVATE_KEY", "WORLD_ID_ROUTER_ADDRESS", "WORLD_APP_ID", "CLAIM_SIGNER_ADDRESS", "LOCAL_RPC_URL", "WORLDCHAIN_RPC_URL"]) {
    if (!(name in extraEnv)) delete env[name];
  }
  return new Promise((resolve, reject) => {
    const child = spawn(hardhatBin, args, { cwd: packageDir, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the commands three at a time: each loads Hardhat for a few seconds, and the machine may be busy. */
async function runAll(commands: Array<[string[], Record<string, string>]>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < commands.length; i += 3) {
    outcomes.push(...(await Promise.all(commands.slice(i, i + 3).map(([args, env]) => runHardhat(args, env)))));
  }
  return outcomes;
}

/** Exit 1, nothing on stdout, exactly one line on stderr: "<task>: <message>". */
function expectOneLineRefusal(outcome: Outcome, task: string, message: RegExp): void {
  const lines = outcome.stderr.split("\n").filter((line) => line.trim() !== "");
  expect(outcome.code, outcome.stderr).to.equal(1);
  expect(outcome.stdout.trim(), "stdout").to.equal("");
  expect(lines, outcome.stderr).to.have.length(1);
  expect(lines[0]).to.match(new RegExp(`^${task}: `));
  expect(lines[0]).to.match(message);
  expect(outcome.stderr).to.not.match(/\n\s+at /);
}

/** A stand-in for a World Chain RPC: answers the chain id 480 and no code anywhere. */
async function startFakeWorldChainRpc(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const call = JSON.parse(body) as { id: number; method: string };
      const results: Record<string, string> = { eth_chainId: "0x1e0", net_version: "480", eth_getCode: "0x", eth_blockNumber: "0x1" };
      const result = results[call.method];
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(result === undefined
        ? { jsonrpc: "2.0", id: call.id, error: { code: -32601, message: `${call.method} is not served here` } }
        : { jsonrpc: "2.0", id: call.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("owner tasks and deploy from the command line: refusals are one line", function () {
  // Every case starts Hardhat processes; under coverage on a loaded 2-core machine one takes 10-20 s.
  this.timeout(600_000);

  it("bad input: --amount -1, --wait abc, killswitch without --confirm, a bad signer, a missing option", async function () {
    const cases: Array<[string[], string, RegExp]> = [
      [["set-amount-per-mint", "--amount", "-1"], "set-amount-per-mint", /"-1" is not an ORO amount/],
      [["set-wait-between-mints", "--wait", "abc"], "set-wait-between-mints", /"abc" is not a duration/],
      [["killswitch"], "killswitch", /Run again with --confirm/],
      [["set-claim-signer", "--signer", "0x123"], "set-claim-signer", /"0x123" is not an address/],
      [["fund-claims", "--amount", "1e3"], "fund-claims", /"1e3" is not an ORO amount/],
      [["set-amount-per-mint"], "set-amount-per-mint", /--amount is required, e.g. --amount 0\.5/],
      [["set-external-nullifier"], "set-external-nullifier", /--app-id is required/],
    ];
    const outcomes = await runAll(cases.map(([args]) => [args, {}]));
    cases.forEach(([, task, message], i) => {
      const outcome = outcomes[i];
      if (!outcome) throw new Error("missing outcome");
      expectOneLineRefusal(outcome, task, message);
    });
  });

  it("shows Hardhat's stack trace only when asked with --show-stack-traces", async function () {
    const outcome = await runHardhat(["set-wait-between-mints", "--wait", "abc", "--show-stack-traces"]);
    expect(outcome.code).to.equal(1);
    expect(outcome.stderr).to.include('"abc" is not a duration');
    expect(outcome.stderr).to.match(/\n\s+at /);
  });

  it("wrong network: nothing answers, or the recorded contracts are not there", async function () {
    const [unreachable, empty] = await Promise.all([
      runHardhat(["status", "--network", "localhost"], { LOCAL_RPC_URL: "http://127.0.0.1:9" }),
      // A fresh in-process chain: deployments/31337.json names contracts that do not exist on it.
      runHardhat(["set-amount-per-mint", "--amount", "1"]),
    ]);
    expectOneLineRefusal(unreachable, "status", /wrong network: nothing answers at http:\/\/127\.0\.0\.1:9/);
    expectOneLineRefusal(empty, "set-amount-per-mint", /wrong network: WorldIdRouter is recorded at 0x[0-9a-fA-F]{40} on chain 31337 but has no code there/);
  });

  describe("against a running local chain", function () {
    let server: { close(): Promise<void> } | undefined;
    let rpcUrl = "";

    before(async function () {
      // A fresh chain gets the committed addresses (the deploy test checks it), which the processes read.
      useDeploymentsDir(mkdtempSync(path.join(tmpdir(), "oro-cli-deployments-")));
      await reset();
      await deployAll(hre);
      const jsonRpc = (await hre.run(TASK_NODE_CREATE_SERVER, { hostname: "127.0.0.1", port: 0, provider: hre.network.provider })) as {
        listen(): Promise<{ address: string; port: number }>;
        close(): Promise<void>;
      };
      const { port } = await jsonRpc.listen();
      server = jsonRpc;
      rpcUrl = `http://127.0.0.1:${port}`;
    });

    after(async function () {
      await server?.close();
      useDeploymentsDir(DEPLOYMENTS_DIR);
      await reset();
    });

    it("refuses a caller who is not the owner, naming the owner", async function () {
      const [owner, stranger] = await hre.viem.getWalletClients();
      if (!owner || !stranger) throw new Error("needs two accounts");
      const deployment = (await deployAll(hre)).deployment;
      const claims = await hre.viem.getContractAt("ReferralClaim", deployment.contracts.ReferralClaim.address);
      await claims.write.transferOwnership([stranger.account.address]);
      await claims.write.acceptOwnership({ account: stranger.account });

      const outcome = await runHardhat(["pause-claims", "--network", "localhost"], { LOCAL_RPC_URL: rpcUrl });
      expectOneLineRefusal(outcome, "pause-claims",
        new RegExp(`${getAddress(owner.account.address)} is not the owner of ReferralClaim; the owner is ${getAddress(stranger.account.address)}`));
      expect(await claims.read.paused()).to.equal(false);

      const status = await runHardhat(["status", "--network", "localhost"], { LOCAL_RPC_URL: rpcUrl });
      expect(status.code, status.stderr).to.equal(0);
      expect(status.stdout).to.match(/claims\s+running/);
    });
  });

  describe("deploy to World Chain refuses development defaults", function () {
    let rpc: { url: string; close(): Promise<void> } | undefined;

    before(async function () {
      rpc = await startFakeWorldChainRpc();
    });

    after(async function () {
      await rpc?.close();
    });

    const production = (extra: Record<string, string>) => ({
      WORLDCHAIN_RPC_URL: rpc?.url ?? "",
      DEPLOYER_PRIVATE_KEY: OPERATOR_KEY,
      WORLD_ID_ROUTER_ADDRESS: WORLD_CHAIN_WORLD_ID_ROUTER,
      WORLD_ID_VERIFIER_ADDRESS: WORLD_CHAIN_WORLD_ID_VERIFIER,
      WORLD_ID_RP_ID: "rp_00000000000001e0",
      WORLD_APP_ID: "app_0123456789abcdef",
      CLAIM_SIGNER_ADDRESS: "0x1111111111111111111111111111111111111111",
      ...extra,
    });

    it("without the router, app id and signer; with a development signer, app, key or a mock router", async function () {
      const cases: Array<[Record<string, string>, RegExp]> = [
        [production({ WORLD_ID_ROUTER_ADDRESS: "", WORLD_ID_VERIFIER_ADDRESS: "", WORLD_ID_RP_ID: "", WORLD_APP_ID: "", CLAIM_SIGNER_ADDRESS: "" }),
          /refusing to deploy to chain 480 without WORLD_ID_ROUTER_ADDRESS, WORLD_ID_VERIFIER_ADDRESS, WORLD_ID_RP_ID, WORLD_APP_ID, CLAIM_SIGNER_ADDRESS/],
        [production({ WORLD_ID_RP_ID: "rp_0000000000007a69" }), /WORLD_ID_RP_ID rp_0000000000007a69 is the local development relying party/],
        [production({ WORLD_ID_RP_ID: "app_oro" }), /WORLD_ID_RP_ID an rp id is rp_ followed by 16 hex digits/],
        // The development chain's mock verifier address.
        [production({ WORLD_ID_VERIFIER_ADDRESS: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512" }), /must be World's verifier 0x00000000009E00F9FE82CfeeBB4556686da094d7/],
        [production({ CLAIM_SIGNER_ADDRESS: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }), /CLAIM_SIGNER_ADDRESS 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 is one of Hardhat's public development accounts/],
        [production({ WORLD_APP_ID: "app_staging_oro_local" }), /WORLD_APP_ID app_staging_oro_local is the local development app/],
        [production({ WORLD_APP_ID: "app_staging_0123" }), /app_staging_0123 is a staging app/],
        // The development chain's mock router address.
        [production({ WORLD_ID_ROUTER_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3" }), /must be World's router 0x17B354dD2595411ff79041f930e491A4Df39A278/],
        [production({ DEPLOYER_PRIVATE_KEY: STRANGER_KEY }), /DEPLOYER_PRIVATE_KEY is one of Hardhat's public development keys/],
        // The stand-in chain has no code at World's router address.
        [production({}), /WORLD_ID_ROUTER_ADDRESS 0x17B354dD2595411ff79041f930e491A4Df39A278 has no code there/],
      ];
      const outcomes = await runAll(cases.map(([env]) => [["deploy", "--network", "worldchain"], env]));
      cases.forEach(([, message], i) => {
        const outcome = outcomes[i];
        if (!outcome) throw new Error("missing outcome");
        expectOneLineRefusal(outcome, "deploy", message);
      });
    });
  });
});
