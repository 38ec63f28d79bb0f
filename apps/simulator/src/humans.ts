import { devNullifierHash } from "@oro/clients";
import { keccak256, stringToHex, type Address } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";

/** One wallet of a simulated World App user: a local EOA whose key only the simulator holds. */
export interface SimulatedWallet {
  id: string;
  label: string;
  username: string;
  account: PrivateKeyAccount;
}

/**
 * Which World ID credentials a human's World App holds: verified before World ID 4.0's Phase 2 (June 2026), both a
 * 3.0 and a 4.0 credential; verified since, a 4.0 credential only (World App makes them no 3.0 proof); on a World
 * App not yet updated for 4.0, a 3.0 credential only (it announces verify v1 only and makes no 4.0 proof).
 */
export type CredentialKind = "3.0-and-4.0" | "4.0-only" | "3.0-only";

/** A simulated human: one World ID (one nullifier for the claim action), one or more wallets. */
export interface SimulatedHuman {
  id: string;
  name: string;
  /** Orb-verified humans get a development proof; the others get `credential_unavailable`. */
  orbVerified: boolean;
  credentials: CredentialKind;
  /** When their 4.0 credential was first issued (unix seconds): a request's genesis_issued_at_min must not be later. */
  genesisIssuedAt: number;
  /**
   * When their 4.0 credential expires (unix seconds, chain clock): World App proves a request only while
   * `expiresAt > now` and `expiresAt > expires_at_min` (walletkit's credential check), else `credential_unavailable`.
   */
  credentialExpiresAt: number;
  nullifierHash: bigint;
  wallets: SimulatedWallet[];
  /** The ORO sessions World App created for them (commitment → IDKit's whole session id). */
  sessions: Map<bigint, string>;
  /** World App's replay guard: when it first disclosed each uniqueness nullifier (chain seconds), by `rpId:action`. */
  disclosed: Map<string, number>;
}

const BEFORE_PHASE_2 = Date.UTC(2024, 0, 15) / 1000;
const AFTER_PHASE_2 = Date.UTC(2026, 6, 1) / 1000;
/** A credential that outlives any development run (World App renews a credential before it expires). */
export const LONG_LIVED_CREDENTIAL_EXPIRY = Date.UTC(2035, 0, 1) / 1000;
/** The switch "credential expires soon": this long after the chain's clock when it is turned on. */
export const EXPIRING_CREDENTIAL_SECONDS = 10 * 86_400;

const PEOPLE: { id: string; name: string; orbVerified: boolean; credentials: CredentialKind; genesisIssuedAt: number; wallets: string[] }[] = [
  { id: "alice", name: "Alice", orbVerified: true, credentials: "3.0-and-4.0", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main"] },
  { id: "bob", name: "Bob (two wallets)", orbVerified: true, credentials: "3.0-and-4.0", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main", "second"] },
  { id: "carol", name: "Carol", orbVerified: true, credentials: "3.0-and-4.0", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main"] },
  { id: "dave", name: "Dave (not verified)", orbVerified: false, credentials: "3.0-and-4.0", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main"] },
  { id: "erin", name: "Erin (verified after June 2026)", orbVerified: true, credentials: "4.0-only", genesisIssuedAt: AFTER_PHASE_2, wallets: ["main"] },
  { id: "frank", name: "Frank (World App without 4.0)", orbVerified: true, credentials: "3.0-only", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main"] },
  { id: "grace", name: "Grace (verified after June 2026)", orbVerified: true, credentials: "4.0-only", genesisIssuedAt: AFTER_PHASE_2, wallets: ["main"] },
  { id: "heidi", name: "Heidi (lets her streak run out)", orbVerified: true, credentials: "3.0-and-4.0", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main"] },
  { id: "ivan", name: "Ivan (claims in time)", orbVerified: true, credentials: "3.0-and-4.0", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main"] },
  // Humans new under World ID 4.0 for the journeys in which an enrolment meets a failure and is completed later.
  { id: "lena", name: "Lena (verified after June 2026)", orbVerified: true, credentials: "4.0-only", genesisIssuedAt: AFTER_PHASE_2, wallets: ["main"] },
  { id: "mia", name: "Mia (verified after June 2026)", orbVerified: true, credentials: "4.0-only", genesisIssuedAt: AFTER_PHASE_2, wallets: ["main"] },
  { id: "noah", name: "Noah (verified after June 2026)", orbVerified: true, credentials: "4.0-only", genesisIssuedAt: AFTER_PHASE_2, wallets: ["main"] },
  { id: "olga", name: "Olga (verified after June 2026, two wallets)", orbVerified: true, credentials: "4.0-only", genesisIssuedAt: AFTER_PHASE_2, wallets: ["main", "second"] },
  // Humans whose enrolment, or move, a front-runner copies from the mempool and lands first (journey 8k).
  { id: "pia", name: "Pia (verified after June 2026)", orbVerified: true, credentials: "4.0-only", genesisIssuedAt: AFTER_PHASE_2, wallets: ["main"] },
  { id: "quinn", name: "Quinn (moves to 4.0)", orbVerified: true, credentials: "3.0-and-4.0", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main"] },
  { id: "julie", name: "Julie (World App in French)", orbVerified: true, credentials: "3.0-and-4.0", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main"] },
  { id: "karla", name: "Karla (World App in Latin American Spanish)", orbVerified: true, credentials: "3.0-and-4.0", genesisIssuedAt: BEFORE_PHASE_2, wallets: ["main"] },
];

/** Deterministic keys: the same simulated user has the same address on every run, so a running chain remembers them. */
function walletKey(walletId: string) {
  return keccak256(stringToHex(`oro-simulator-wallet:${walletId}`));
}

export function createHumans(): SimulatedHuman[] {
  return PEOPLE.map((person) => ({
    id: person.id,
    name: person.name,
    orbVerified: person.orbVerified,
    credentials: person.credentials,
    genesisIssuedAt: person.genesisIssuedAt,
    credentialExpiresAt: LONG_LIVED_CREDENTIAL_EXPIRY,
    nullifierHash: devNullifierHash(`simulator-${person.id}`),
    sessions: new Map<bigint, string>(),
    disclosed: new Map<string, number>(),
    wallets: person.wallets.map((suffix) => {
      const id = `${person.id}-${suffix}`;
      return { id, label: suffix === "main" ? "main wallet" : `${suffix} wallet`, username: `${person.id}${suffix === "main" ? "" : `.${suffix}`}`, account: privateKeyToAccount(walletKey(id)) };
    }),
  }));
}

export function findWallet(humans: SimulatedHuman[], walletId: string): { human: SimulatedHuman; wallet: SimulatedWallet } | undefined {
  for (const human of humans) {
    const wallet = human.wallets.find((candidate) => candidate.id === walletId);
    if (wallet) return { human, wallet };
  }
  return undefined;
}

export function findByAddress(humans: SimulatedHuman[], address: string): SimulatedWallet | undefined {
  const lower = address.toLowerCase();
  return humans.flatMap((human) => human.wallets).find((wallet) => wallet.account.address.toLowerCase() === lower);
}

export type { Address };
