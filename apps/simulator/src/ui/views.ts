import type { BridgeMessage } from "../commands.js";

/**
 * What the page's script works with: the simulator's answers as the page reads them, and the page itself as its
 * pieces share it. Types only: the pieces are served as their own source text (see script.ts).
 */
export interface WalletView {
  id: string;
  label: string;
  username: string;
  address: string;
  notifications: string;
  oro: string | null;
}

export interface HumanView {
  id: string;
  name: string;
  orbVerified: boolean;
  credentialExpiresSoon: boolean;
  credentials: string;
  wallets: WalletView[];
}

export interface StateView {
  activeWalletId: string;
  language: string;
  languages: string[];
  autoApprove: boolean;
  notch: boolean;
  switches: { verificationFails: boolean; nextTransaction: string; notificationAnswer: string; worldId3Proofs: boolean };
  humans: HumanView[];
  shares: { at: string; wallet: string; title: string | null; text: string | null; url: string | null }[];
  log: { at: string; summary: string }[];
}

export interface ChainView {
  blockTime: string;
  amountPerMint: string | null;
  waitBetweenMintsSeconds: number | null;
  killed: boolean | null;
  oro: string | null;
}

export type { BridgeMessage };

/** The page as the script's pieces share it (simulator-ui.ts makes it). */
export interface SimulatorPage {
  /** The phone's frame, where the mini app runs. */
  frame: HTMLIFrameElement;
  byId: <T extends HTMLElement>(id: string) => T;
  escapeHtml: (value: string) => string;
  /** The status line the journeys wait on: `label…`, then `label: done` or the error. */
  say: (message: string, error?: boolean) => void;
  /** A simulator endpoint: GET without a body, POST with one; throws with its error. */
  call: <T>(path: string, body?: unknown) => Promise<T>;
  state: () => StateView | null;
  activeWallet: () => { human: HumanView; wallet: WalletView } | null;
  refresh: () => Promise<void>;
  refreshChain: () => Promise<void>;
  /** Opens `path` of the mini app in the phone. */
  launch: (path: string) => void;
  showFrameUrl: () => void;
  /** Runs a control's work with its label in the status line. */
  action: (label: string, run: () => Promise<unknown>) => Promise<void>;
  /** Takes the mini app's storage off the phone (each wallet is its own phone). */
  takeStorage: () => Record<string, string>;
}

/** The pieces of the script that simulator-ui.ts runs, each served as its own source text. */
export interface UiPieces {
  /** Shows the simulator's state in the control panel (panel.ts). */
  renderPanel: (page: SimulatorPage, state: StateView) => void;
  /** Lists the reminders and shows the newest on the phone (reminders.ts). */
  refreshReminders: (page: SimulatorPage) => Promise<void>;
  /** World App's confirmation sheet (confirm-sheet.ts). */
  confirmSheet: (page: SimulatorPage, message: BridgeMessage) => Promise<boolean>;
  /** The control panel's controls (controls.ts). */
  wireControls: (page: SimulatorPage) => void;
}
