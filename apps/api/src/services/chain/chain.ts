import { chainClockSeconds, referralClaimAbi, referralVoucherTypedData, type ReferralVoucher } from "@oro/clients";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

/** The chain as the API uses it: reads, voucher signatures and the payout wallet's transactions. */
export interface ChainService {
  readonly chainId: number;
  readonly claimContract: Address;
  readonly publicClient: PublicClient;
  /** The address whose vouchers the claim contract honours (the API's signer). */
  readonly voucherSigner: Address;
  /** The hot wallet that submits `auto` payouts, if configured. */
  readonly payoutWallet: Address | undefined;
  /** The chain's clock in unix seconds (`chainClockSeconds` of @oro/clients: its next block's time). */
  clockSeconds(): Promise<number>;
  signVoucher(voucher: ReferralVoucher): Promise<Hex>;
  isNonceUsed(nonce: bigint): Promise<boolean>;
  /** Sends `claim(voucher, signature)` from the payout wallet and returns the transaction hash. */
  submitVoucher(voucher: ReferralVoucher, signature: Hex): Promise<Hex>;
}

export interface ChainOptions {
  chainId: number;
  rpcUrl: string;
  claimContract: Address;
  claimSignerKey: Hex;
  payoutWalletKey?: Hex | undefined;
}

export function createChainService(options: ChainOptions): ChainService {
  const chain: Chain = defineChain({
    id: options.chainId,
    name: `chain-${options.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const transport = http(options.rpcUrl, { timeout: 10_000, retryCount: 1 });
  const publicClient = createPublicClient({ chain, transport });
  const signer = privateKeyToAccount(options.claimSignerKey);
  const payoutAccount = options.payoutWalletKey ? privateKeyToAccount(options.payoutWalletKey) : undefined;
  const walletClient = payoutAccount ? createWalletClient({ chain, transport, account: payoutAccount }) : undefined;

  return {
    chainId: options.chainId,
    claimContract: options.claimContract,
    publicClient,
    voucherSigner: signer.address,
    payoutWallet: payoutAccount?.address,
    clockSeconds: () => chainClockSeconds(publicClient),
    signVoucher: (voucher) => signer.signTypedData(referralVoucherTypedData(options.chainId, options.claimContract, voucher)),
    isNonceUsed: (nonce) =>
      publicClient.readContract({ address: options.claimContract, abi: referralClaimAbi, functionName: "isNonceUsed", args: [nonce] }),
    async submitVoucher(voucher, signature) {
      if (!walletClient) throw new Error("no payout wallet configured (PAYOUT_WALLET_PRIVATE_KEY)");
      return walletClient.writeContract({
        address: options.claimContract,
        abi: referralClaimAbi,
        functionName: "claim",
        args: [voucher, signature],
      });
    },
  };
}
