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

/** A simulated human: one World ID (one nullifier for the claim action), one or more wallets. */
export interface SimulatedHuman {
  id: string;
  name: string;
  /** Orb-verified humans get a development proof; the others get `credential_unavailable`. */
  orbVerified: boolean;
  nullifierHash: bigint;
  wallets: SimulatedWallet[];
}

const PEOPLE: { id: string; name: string; orbVerified: boolean; wallets: string[] }[] = [
  { id: "alice", name: "Alice", orbVerified: true, wallets: ["main"] },
  { id: "bob", name: "Bob (two wallets)", orbVerified: true, wallets: ["main", "second"] },
  { id: "carol", name: "Carol", orbVerified: true, wallets: ["main"] },
  { id: "dave", name: "Dave (not verified)", orbVerified: false, wallets: ["main"] },
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
    nullifierHash: devNullifierHash(`simulator-${person.id}`),
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
