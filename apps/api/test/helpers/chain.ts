import { createRequire } from "node:module";
import { startLocalChain as startChain, type Service } from "@oro/dev-stack";
import { addresses, buildDevProof, CHAIN_IDS, deployments, oroAbi, referralClaimAbi, type ReferralVoucher } from "@oro/clients";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";

/** Hardhat's public development mnemonic: #0 owns the contracts, #1 signs vouchers, #2 is the payout wallet. */
const MNEMONIC = "test test test test test test test test test test test junk";
export const devAccount = (index: number) => mnemonicToAccount(MNEMONIC, { addressIndex: index });

export const local = addresses[CHAIN_IDS.development];

export interface LocalChain {
  rpcUrl: string;
  publicClient: PublicClient;
  service: Service;
  stop(): Promise<void>;
}

/** The contracts package's local chain (every contract deployed) on a free port, from @oro/dev-stack. */
export async function startLocalChain(): Promise<LocalChain> {
  const chain = await startChain();
  return {
    rpcUrl: chain.rpcUrl,
    publicClient: createPublicClient({ chain: hardhat, transport: http(chain.rpcUrl) }),
    service: chain.service,
    stop: () => chain.stop(),
  };
}

export function chainActions(chain: LocalChain) {
  const transport = http(chain.rpcUrl);
  const wallet = (index: number) => createWalletClient({ chain: hardhat, transport, account: devAccount(index) });
  const testClient = createTestClient({ chain: hardhat, mode: "hardhat", transport });
  const { worldId } = deployments[CHAIN_IDS.development];

  async function confirmed(hash: Hash) {
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  }

  return {
    testClient,
    /** A human (nullifier hash) mints ORO to `receiver`; account #3 sends the transaction. */
    async mint(nullifierHash: bigint, receiver: Address) {
      const { root, proof } = buildDevProof({ receiver, nullifierHash, appId: worldId.appId, action: worldId.action });
      const hash = await wallet(3).writeContract({
        address: local.Oro,
        abi: oroAbi,
        functionName: "mint",
        args: [root, nullifierHash, proof, receiver],
      });
      return confirmed(hash);
    },
    /** Anyone may submit a voucher; it always pays voucher.account. Account #4 submits. */
    async claimVoucher(voucher: ReferralVoucher, signature: Hex) {
      const hash = await wallet(4).writeContract({
        address: local.ReferralClaim,
        abi: referralClaimAbi,
        functionName: "claim",
        args: [voucher, signature],
      });
      return confirmed(hash);
    },
    balanceOf: (account: Address) =>
      chain.publicClient.readContract({ address: local.Oro, abi: oroAbi, functionName: "balanceOf", args: [account] }),
    previewClaim: (voucher: ReferralVoucher, signature: Hex) =>
      chain.publicClient.readContract({
        address: local.ReferralClaim,
        abi: referralClaimAbi,
        functionName: "previewClaim",
        args: [voucher.account, voucher.amount, voucher.nonce, signature],
      }),
    /** Deploys a minimal EIP-1271 wallet that accepts signatures of `owner` (account #5 deploys). */
    async deploySmartWallet(owner: Address): Promise<Address> {
      const { abi, bytecode } = compileSmartWallet();
      const hash = await wallet(5).deployContract({ abi, bytecode, args: [owner] });
      const receipt = await confirmed(hash);
      if (!receipt.contractAddress) throw new Error("no contract address");
      return receipt.contractAddress;
    },
  };
}

const SMART_WALLET_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// A smart-contract wallet as far as EIP-1271 goes: it accepts what its owner key signed.
contract TestSmartWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
`;

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

let compiled: { abi: readonly unknown[]; bytecode: Hex } | undefined;

/** Compiles the test wallet with the solc-js the contracts use (offline). */
function compileSmartWallet() {
  if (compiled) return compiled;
  const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };
  const input = {
    language: "Solidity",
    sources: { "TestSmartWallet.sol": { content: SMART_WALLET_SOURCE } },
    settings: { evmVersion: "cancun", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = output.errors?.filter((error) => error.severity === "error") ?? [];
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join("\n"));
  const contract = output.contracts["TestSmartWallet.sol"]?.TestSmartWallet;
  if (!contract) throw new Error("TestSmartWallet missing from solc output");
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}
