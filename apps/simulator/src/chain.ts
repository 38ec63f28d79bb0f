import { addresses, DEV_PROFILE, oroAbi } from "@oro/clients";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  formatUnits,
  http,
  parseEther,
  parseUnits,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
} from "viem";
import { mnemonicToAccount, type Account } from "viem/accounts";

/**
 * The local chain as the simulator uses it: World App's World Chain (480) is played by the local chain, the
 * wallets' gas is "sponsored" by topping them up, time moves with evm_increaseTime + one evm_mine (never
 * hardhat_mine with a count: it breaks Ponder), and the owner tasks run with the local owner key.
 */
export interface LocalChain {
  chain: Chain;
  publicClient: PublicClient;
  oroAddress: Address | undefined;
  send(account: Account, call: { to: Address; data: Hex; value?: bigint }): Promise<Hex>;
  advanceTime(seconds: number): Promise<ChainStatus>;
  status(): Promise<ChainStatus>;
  oroBalance(address: Address): Promise<bigint | null>;
  ownerTask(task: OwnerTask): Promise<{ hash: Hex; status: ChainStatus }>;
}

export interface ChainStatus {
  chainId: number;
  blockNumber: string;
  blockTime: string;
  oro: Address | null;
  amountPerMint: string | null;
  waitBetweenMintsSeconds: number | null;
  killed: boolean | null;
  owner: Address | null;
}

export type OwnerTask =
  | { task: "amount-per-mint"; amount: string }
  | { task: "wait-between-mints"; wait: string }
  | { task: "killswitch" }
  | { task: "close-world-id-3" };

const GAS_TOP_UP = parseEther("10");

const units = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;

/** "24h", "90m", "2d", "30s" or a number of seconds. */
export function parseWait(value: string): number {
  const match = /^(\d+)\s*(s|m|h|d)?$/.exec(value.trim());
  if (!match?.[1]) throw new Error(`"${value}" is not a wait like 24h, 90m, 2d or 3600`);
  const unit = (match[2] ?? "s") as keyof typeof units;
  return Number(match[1]) * units[unit];
}

export function createLocalChain(options: { rpcUrl: string; chainId: number }): LocalChain {
  const chain = defineChain({
    id: options.chainId,
    name: "Local chain (plays World Chain)",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const transport = http(options.rpcUrl, { retryCount: 1 });
  const publicClient = createPublicClient({ chain, transport });
  const byChain: Record<number, { Oro?: Address } | undefined> = addresses;
  const oroAddress = byChain[options.chainId]?.Oro;
  const owner = mnemonicToAccount(DEV_PROFILE.mnemonic, { addressIndex: 0 });

  async function rpc(method: string, params: unknown[]): Promise<unknown> {
    return publicClient.request({ method: method as "eth_chainId", params: params as never });
  }

  async function topUp(address: Address): Promise<void> {
    const balance = await publicClient.getBalance({ address });
    if (balance < GAS_TOP_UP / 2n) await rpc("hardhat_setBalance", [address, `0x${GAS_TOP_UP.toString(16)}`]);
  }

  async function status(): Promise<ChainStatus> {
    const block = await publicClient.getBlock({ blockTag: "latest" });
    const base = {
      chainId: options.chainId,
      blockNumber: block.number.toString(),
      blockTime: new Date(Number(block.timestamp) * 1000).toISOString(),
      oro: oroAddress ?? null,
    };
    if (!oroAddress) return { ...base, amountPerMint: null, waitBetweenMintsSeconds: null, killed: null, owner: null };
    const read = <T>(functionName: "amountPerMint" | "waitBetweenMints" | "killed" | "owner") =>
      publicClient.readContract({ address: oroAddress, abi: oroAbi, functionName }).then((value) => value as T).catch(() => null);
    const [amount, wait, killed, currentOwner] = await Promise.all([read<bigint>("amountPerMint"), read<bigint>("waitBetweenMints"), read<boolean>("killed"), read<Address>("owner")]);
    return {
      ...base,
      amountPerMint: amount === null ? null : formatUnits(amount, 18),
      waitBetweenMintsSeconds: wait === null ? null : Number(wait),
      killed,
      owner: currentOwner,
    };
  }

  return {
    chain,
    publicClient,
    oroAddress,
    async send(account, call) {
      await topUp(account.address);
      const wallet = createWalletClient({ account, chain, transport });
      return wallet.sendTransaction({ to: call.to, data: call.data, value: call.value ?? 0n, chain });
    },
    async advanceTime(seconds) {
      await rpc("evm_increaseTime", [seconds]);
      await rpc("evm_mine", []);
      return status();
    },
    status,
    async oroBalance(address) {
      if (!oroAddress) return null;
      return publicClient.readContract({ address: oroAddress, abi: oroAbi, functionName: "balanceOf", args: [address] }).catch(() => null);
    },
    async ownerTask(task) {
      if (!oroAddress) throw new Error(`no Oro deployment for chain ${options.chainId} in @oro/clients`);
      const currentOwner = await publicClient.readContract({ address: oroAddress, abi: oroAbi, functionName: "owner" });
      if (currentOwner.toLowerCase() !== owner.address.toLowerCase()) {
        throw new Error(`the token's owner is ${currentOwner}, not the local owner key (Hardhat account #0)`);
      }
      const wallet = createWalletClient({ account: owner, chain, transport });
      const hash =
        task.task === "amount-per-mint"
          ? await wallet.writeContract({ address: oroAddress, abi: oroAbi, functionName: "setAmountPerMint", args: [parseUnits(task.amount, 18)], chain })
          : task.task === "wait-between-mints"
            ? await wallet.writeContract({ address: oroAddress, abi: oroAbi, functionName: "setWaitBetweenMints", args: [BigInt(parseWait(task.wait))], chain })
            : task.task === "close-world-id-3"
              ? await wallet.writeContract({ address: oroAddress, abi: oroAbi, functionName: "closeWorldId3", chain })
              : await wallet.writeContract({ address: oroAddress, abi: oroAbi, functionName: "killswitch", chain });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") throw new Error(`the owner transaction ${hash} reverted`);
      return { hash, status: await status() };
    },
  };
}
