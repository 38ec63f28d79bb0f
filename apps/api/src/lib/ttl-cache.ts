/**
 * A small in-process cache with a time to live per entry (earnings answers, sessions, prices).
 *
 * A read that started before a `delete` of its key must not store what it read: the delete says the data changed,
 * and the read may have seen it before the change. `mark()` taken before the read and passed to `set` skips such a
 * value. A delete leaves a tombstone (counted in the size bound, expiring with the time to live) that says when it
 * happened; when a tombstone is dropped before its time, or the cache is cleared, every read begun before is skipped.
 */
/** A value, or the tombstone of a delete (its place in the count of deletes). */
type Entry<V> = { value: V; expiresAt: number } | { deletedAt: number; expiresAt: number };

export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Counts deletes; a read's mark is its value when the read began. */
  private deletes = 0;
  /** Reads that began before this mark are not stored (a tombstone that would have refused them is gone). */
  private forgottenBefore = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.drop(key, entry);
      return undefined;
    }
    return "value" in entry ? entry.value : undefined;
  }

  /** The moment a read begins, for `set(key, value, mark)`. */
  mark(): number {
    return this.deletes;
  }

  /** Stores the value, unless `since` is given and the key was deleted (or the cache cleared) after that mark. */
  set(key: string, value: V, since?: number): void {
    if (since !== undefined) {
      if (since < this.forgottenBefore) return;
      const entry = this.entries.get(key);
      if (entry && "deletedAt" in entry && entry.deletedAt > since) return;
    }
    this.put(key, { value, expiresAt: Date.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.deletes += 1;
    this.put(key, { deletedAt: this.deletes, expiresAt: Date.now() + this.ttlMs });
  }

  clear(): void {
    this.deletes += 1;
    this.forgottenBefore = this.deletes;
    this.entries.clear();
  }

  private put(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.entries().next();
      if (!oldest.done) this.drop(oldest.value[0], oldest.value[1]);
    }
    this.entries.set(key, entry);
  }

  private drop(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    if ("deletedAt" in entry) this.forgottenBefore = Math.max(this.forgottenBefore, entry.deletedAt);
  }
}
