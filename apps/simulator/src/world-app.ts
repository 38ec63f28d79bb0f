import { WORLD_APP_DEVICE_LANGUAGES, type OutboxNotification, type ShownNotification } from "@oro/clients";
import { formatUnits } from "viem";
import type { LocalChain } from "./chain.js";
import { supportedCommandsOf, type NotificationPermission, type SharedContent, type Switches } from "./commands.js";
import { HttpError } from "./http.js";
import { LONG_LIVED_CREDENTIAL_EXPIRY, createHumans, findByAddress, findWallet, type SimulatedHuman } from "./humans.js";

/**
 * The simulated World App: its humans and their wallets (each wallet its own phone, with its own language, storage and
 * notification permission), the switches of the control panel, and what the phone shows. Only this process holds the
 * simulated wallets' keys.
 */
export class SimulatedWorldApp {
  readonly humans: SimulatedHuman[] = createHumans();
  activeWalletId: string;
  /** Each wallet is its own phone, set to its own language (English until chosen). */
  readonly deviceLanguages = new Map<string, string>();
  autoApprove = true;
  /** A phone with a notch and a home indicator: World App reports its safe area to the mini app. */
  notch = false;
  readonly switches: Switches = { verificationFails: false, nextTransaction: "send", notificationAnswer: "allow", worldId3Proofs: true };
  readonly permissions = new Map<string, NotificationPermission>();
  readonly shares: SharedContent[] = [];
  readonly log: { at: string; summary: string }[] = [];
  /** The mini app's storage of each phone but the one in hand (the page holds that one). */
  readonly deviceStorage = new Map<string, Record<string, string>>();
  /** How far this simulator moved the chain's clock. */
  advancedSeconds = 0;

  constructor(
    private readonly chain: LocalChain,
    private readonly apiOrigin: string,
  ) {
    this.activeWalletId = this.humans[0]?.wallets[0]?.id ?? "";
  }

  languageOf(walletId: string): string {
    return this.deviceLanguages.get(walletId) ?? "en";
  }

  active() {
    const found = findWallet(this.humans, this.activeWalletId);
    if (!found) throw new HttpError(500, "no active wallet");
    return found;
  }

  note(summary: string): void {
    this.log.unshift({ at: new Date().toISOString(), summary });
    this.log.length = Math.min(this.log.length, 60);
  }

  /** World App's launch properties, as `window.WorldApp` shows them to the mini app. */
  launchProperties(): Record<string, unknown> {
    const { human, wallet } = this.active();
    return {
      world_app_version: 4_000_000,
      device_os: "android",
      is_optional_analytics: false,
      preferred_currency: "USD",
      preferred_language: this.languageOf(wallet.id),
      pending_notifications: 0,
      location: "homepage",
      wallet_address: wallet.account.address,
      safe_area_insets: this.notch ? { top: 47, right: 0, bottom: 34, left: 0 } : { top: 0, right: 0, bottom: 0, left: 0 },
      verification_status: { is_orb_verified: human.orbVerified, is_document_verified: false, is_secure_document_verified: false },
      supported_commands: supportedCommandsOf(human.credentials),
    };
  }

  /** What the control panel shows (GET /__simulator/state). */
  async view() {
    const wallets = this.humans.flatMap((human) => human.wallets);
    const balances = await Promise.all(wallets.map((wallet) => this.chain.oroBalance(wallet.account.address).catch(() => null)));
    const oro = new Map(wallets.map((wallet, index) => [wallet.id, balances[index] ?? null]));
    return {
      activeWalletId: this.activeWalletId,
      language: this.languageOf(this.activeWalletId),
      languages: WORLD_APP_DEVICE_LANGUAGES,
      autoApprove: this.autoApprove,
      notch: this.notch,
      switches: this.switches,
      humans: this.humans.map((human) => ({
        id: human.id,
        name: human.name,
        orbVerified: human.orbVerified,
        credentials: human.credentials,
        credentialExpiresSoon: human.credentialExpiresAt !== LONG_LIVED_CREDENTIAL_EXPIRY,
        wallets: human.wallets.map((wallet) => {
          const balance = oro.get(wallet.id);
          return {
            id: wallet.id,
            label: wallet.label,
            username: wallet.username,
            address: wallet.account.address,
            notifications: this.permissions.get(wallet.id) ?? "not-asked",
            oro: balance === null || balance === undefined ? null : formatUnits(balance, 18),
          };
        }),
      })),
      shares: this.shares,
      log: this.log,
    };
  }

  /**
   * How far the chain's clock is ahead of this machine's: what this simulator advanced, or what the latest block
   * shows if the chain was moved otherwise (the larger). The phone's clock is moved by as much.
   */
  async clockOffsetMs(): Promise<number> {
    const latest = await this.chain.publicClient.getBlock({ blockTag: "latest" }).catch(() => null);
    const fromBlock = latest ? Number(latest.timestamp) * 1000 - Date.now() : 0;
    return Math.max(0, this.advancedSeconds * 1000, fromBlock);
  }

  /**
   * A reminder as World App shows it to its wallet: `${username}` in the title and message becomes the wallet's
   * username (World App fills it in; an address World App does not know keeps the placeholder).
   */
  asShown(row: OutboxNotification): ShownNotification {
    const username = findByAddress(this.humans, row.address)?.username ?? null;
    const fill = (text: string) => (username === null ? text : text.split("${username}").join(username));
    // One World did not deliver shows nothing on the phone: the list names World's reason instead.
    return { ...row, username, shown: row.sent ? { title: fill(row.title), message: fill(row.message) } : null };
  }

  /**
   * World knows each user's World App language and whether they allowed the app's notifications; the API's
   * development outbox stands in for World, so it is told (each wallet is its own phone, with its own language). Sent
   * when either changes and at each launch of the mini app (an API restarted since has forgotten).
   */
  async tellWorld(): Promise<void> {
    const users = this.humans.flatMap((human) =>
      human.wallets.map((wallet) => ({ address: wallet.account.address.toLowerCase(), language: this.languageOf(wallet.id), notifications: this.permissions.get(wallet.id) === "granted" })),
    );
    const answer = await fetch(`${this.apiOrigin}/api/dev/world-app`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ users }) }).catch(
      (error: Error) => error,
    );
    if (answer instanceof Error || !answer.ok) this.note(`World's stand-in (the API's outbox) not told the devices: ${answer instanceof Error ? answer.message : `HTTP ${answer.status}`}`);
  }

  /** World App's username service's answer for an address. */
  usernameOf(address: string) {
    const wallet = findByAddress(this.humans, address);
    return { address: address.toLowerCase(), username: wallet?.username ?? null, profile_picture_url: null };
  }
}
