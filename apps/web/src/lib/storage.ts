import { useSyncExternalStore } from "react";
import { ADDRESS_PATTERN, INVALID, array, boolean, integer, literals, nullable, object, string, type Infer } from "./schema";

/**
 * Every value the app keeps on the device (spec section 3), behind one typed module: each key has a schema and a
 * default, a value that fails its schema (edited by hand, an older format) reads as the default.
 */
const address = string(ADDRESS_PATTERN);
const decimal = string(/^[0-9]{1,78}$/);
const idkitSessionId = string(/^session_[0-9a-f]{64}01[0-9a-f]{62}$/);

const definitions = {
  /** The user has submitted an email from the post-claim form. */
  emailSubmitted: { schema: boolean, fallback: false },
  /** Cached answer of the in-US check, per address. */
  isInUS: { schema: nullable(object({ address: address, isInUS: boolean })), fallback: null },
  /** The language the user chose (a supported code, checked again by the i18n module). */
  language: { schema: nullable(string()), fallback: null },
  /** The referral carried by a deep link, kept for the referral flow. */
  referralCode: {
    schema: nullable(object({ referralCode: string(), referredBy: nullable(string()) })),
    fallback: null,
  },
  /** Whether the user may still accept a referral code (false once they have claimed). */
  referralEligible: { schema: nullable(boolean), fallback: null },
  hasSeenShareTerms: { schema: boolean, fallback: false },
  hasSeenNotificationModal: { schema: boolean, fallback: false },
  /** Notification permission was asked once: the bell then opens the settings instead. */
  notificationPermissionRequested: { schema: boolean, fallback: false },
  /** The address whose language was sent to the API (sent once, then marked). */
  localeSetFor: { schema: nullable(string()), fallback: null },
  /** The signed-in wallet and its API session. */
  session: {
    schema: nullable(
      object({
        address: address,
        username: nullable(string()),
        token: string(),
        expiresAt: string(),
      }),
    ),
    fallback: null,
  },
  /** The announcements already shown (each is shown once). */
  seenAnnouncements: { schema: array(string()), fallback: [] as string[] },
  /** Development builds only: which local test account the development wallet uses. */
  devAccountIndex: { schema: nullable(integer), fallback: null },
  /** The World ID verification of the signed-in address (the proof is bound to it). */
  verification: {
    schema: nullable(
      object({
        address: address,
        merkleRoot: string(),
        nullifierHash: string(),
        proof: array(string()),
      }),
    ),
    fallback: null,
  },
  /**
   * The World ID 4.0 session of the signed-in address's human, once its enrolment landed (wins over a 3.0
   * verification: a human who moved has no 3.0 path).
   */
  worldId4: {
    schema: nullable(object({ address: address, idkitSessionId: idkitSessionId })),
    fallback: null,
  },
  /**
   * An enrolment or a move of the signed-in address that has not landed: its session and the uniqueness proof World
   * App discloses once (decimal text, as the API keeps it too), until the chain shows it.
   */
  pendingEnrolment: {
    schema: nullable(
      object({
        address: address,
        kind: literals("enrol", "move"),
        idkitSessionId: idkitSessionId,
        uniqueness: object({
          nullifier: decimal,
          nonce: decimal,
          expiresAtMin: decimal,
          credentialGenesisIssuedAtMin: decimal,
          proof: array(decimal),
        }),
        worldId3: nullable(object({ merkleRoot: decimal, nullifierHash: decimal, proof: array(decimal) })),
      }),
    ),
    fallback: null,
  },
} as const;

type Definitions = typeof definitions;
export type StorageKey = keyof Definitions;
/** Every key, for the debug page (each value with its reset). */
export const STORAGE_KEYS = Object.keys(definitions) as StorageKey[];
export type StoredValue<K extends StorageKey> = Infer<Definitions[K]["schema"]>;

const PREFIX = "oro.";
const listeners = new Set<() => void>();
const cache = new Map<StorageKey, unknown>();

function backend(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readStored<K extends StorageKey>(key: K): StoredValue<K> {
  if (cache.has(key)) return cache.get(key) as StoredValue<K>;
  const definition = definitions[key];
  let value: unknown = definition.fallback;
  try {
    const text = backend()?.getItem(PREFIX + key);
    if (text != null) {
      const parsed: unknown = definition.schema(JSON.parse(text));
      if (parsed !== INVALID) value = parsed;
    }
  } catch {
    value = definition.fallback;
  }
  cache.set(key, value);
  return value as StoredValue<K>;
}

export function writeStored<K extends StorageKey>(key: K, value: StoredValue<K>): void {
  cache.set(key, value);
  try {
    backend()?.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the value still lives for this visit.
  }
  for (const listener of listeners) listener();
}

export function clearStored(key: StorageKey): void {
  cache.delete(key);
  try {
    backend()?.removeItem(PREFIX + key);
  } catch {
    // Nothing stored, nothing to clear.
  }
  for (const listener of listeners) listener();
}

/** Forgets the in-memory copies (tests, and another tab's writes). */
export function resetStorageCache(): void {
  cache.clear();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key?.startsWith(PREFIX)) resetStorageCache();
  });
}

/** A stored value that re-renders the component when it changes. */
export function useStored<K extends StorageKey>(key: K): StoredValue<K> {
  return useSyncExternalStore(subscribe, () => readStored(key), () => definitions[key].fallback as StoredValue<K>);
}
