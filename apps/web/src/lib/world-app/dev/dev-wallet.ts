import { buildDevProof, DEV_PROFILE, devNullifierHash } from "@oro/clients";
import { createWalletClient, defineChain, http } from "viem";
import { mnemonicToAccount, type HDAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { readStored, writeStored } from "../../storage";
import type { DevWallet } from "../fallback";

/**
 * DEVELOPMENT ONLY: the wallet a plain browser uses instead of World App. Its keys come from Hardhat's public test
 * mnemonic (known to everyone, funded only on the local chain), its World ID proofs are the development proofs the
 * local MockWorldIdRouter accepts, and its transactions go to the local chain. main.tsx installs it only in a
 * development build on the local chain, so a production build never contains it; it is handed its configuration,
 * so that it reads nothing of the app's but the device's storage.
 */
export const DEV_ACCOUNT_COUNT = 10;
/** Accounts 0 and 1 are the local owner and voucher signer; a user starts on account 2. */
const DEFAULT_ACCOUNT_INDEX = 2;

/** What the development wallet needs of the web app's configuration. */
export interface DevWalletConfig {
  chainId: number;
  rpcUrl: string;
  /** The World ID app and action its development proofs are made for (the local deployment's app by default). */
  worldAppId: string | undefined;
  claimAction: string;
}

export function createDevWallet({ chainId, rpcUrl, worldAppId, claimAction }: DevWalletConfig): DevWallet {
  /** The local chain as viem's wallet client needs it. */
  const chain = defineChain({
    id: chainId,
    name: "Local development chain",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const hdAccounts: HDAccount[] = Array.from({ length: DEV_ACCOUNT_COUNT }, (_, addressIndex) =>
    mnemonicToAccount(DEV_PROFILE.mnemonic, { addressIndex }),
  );
  const permissions = { notifications: false };
  let permissionRequested = false;

  const selectedIndex = () => {
    const stored = readStored("devAccountIndex");
    return stored !== null && stored >= 0 && stored < DEV_ACCOUNT_COUNT ? stored : DEFAULT_ACCOUNT_INDEX;
  };
  const defaultAccount = mnemonicToAccount(DEV_PROFILE.mnemonic, { addressIndex: DEFAULT_ACCOUNT_INDEX });
  const account = (): HDAccount => hdAccounts[selectedIndex()] ?? defaultAccount;

  return {
    accounts: hdAccounts.map((hd) => hd.address),
    selectedIndex,
    selectAccount(index) {
      writeStored("devAccountIndex", index);
    },
    async walletAuth({ nonce, statement }) {
      const signer = account();
      const message = createSiweMessage({
        domain: window.location.host,
        address: signer.address,
        statement,
        uri: window.location.origin,
        version: "1",
        chainId,
        nonce,
        issuedAt: new Date(),
        expirationTime: new Date(Date.now() + 10 * 60_000),
      });
      return { address: signer.address, message, signature: await signer.signMessage({ message }) };
    },
    async signMessage(message) {
      const signer = account();
      return { address: signer.address, signature: await signer.signMessage({ message }) };
    },
    async sendTransaction(call) {
      const client = createWalletClient({ account: account(), chain, transport: http(rpcUrl) });
      return client.sendTransaction({ to: call.to, data: call.data });
    },
    verify(signal) {
      const { root, nullifierHash, proof } = buildDevProof({
        receiver: signal,
        // One development human per development account, stable across reloads.
        nullifierHash: devNullifierHash(`wallet-${signal.toLowerCase()}`),
        appId: worldAppId ?? DEV_PROFILE.worldAppId,
        action: claimAction,
      });
      return { version: "3.0", merkleRoot: root, nullifierHash, proof };
    },
    username(address) {
      const index = hdAccounts.findIndex((hd) => hd.address.toLowerCase() === address.toLowerCase());
      return index >= 0 ? `dev-${index}` : "dev";
    },
    permissions: () => ({ ...permissions }),
    requestNotificationPermission() {
      if (permissions.notifications) throw Object.assign(new Error("already granted"), { code: "already_granted" });
      if (permissionRequested) throw Object.assign(new Error("already requested"), { code: "already_requested" });
      permissionRequested = true;
      permissions.notifications = true;
      return { status: "success", permission: "notifications", timestamp: new Date().toISOString(), version: 1 };
    },
  };
}
