/**
 * The gate's lookup cache: one promised value per key, shared by concurrent callers, trusted for
 * a fixed time, emptied whole when it holds too many keys, and forgotten when its load fails.
 */

interface Entry<V> {
  readonly value: Promise<V>;
  readonly fetchedAt: number;
}

/** A bounded time-limited cache of promised values (what loads once serves every caller meanwhile). */
export class PromiseCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxKeys: number,
    private readonly now: () => number,
  ) {}

  /** The value of `key`: cached when younger than the TTL, else `load()` (dropped again if it rejects). */
  get(key: K, load: () => Promise<V>): Promise<V> {
    const now = this.now();
    const cached = this.entries.get(key);
    if (cached && now - cached.fetchedAt < this.ttlMs) {
      return cached.value;
    }
    if (this.entries.size >= this.maxKeys) {
      this.entries.clear();
    }
    const entry: Entry<V> = { value: load(), fetchedAt: now };
    this.entries.set(key, entry);
    entry.value.catch(() => {
      if (this.entries.get(key) === entry) {
        this.entries.delete(key);
      }
    });
    return entry.value;
  }

  /** Caches a value known now (e.g. just written). */
  set(key: K, value: V): void {
    this.entries.set(key, { value: Promise.resolve(value), fetchedAt: this.now() });
  }

  /** Forgets `key` (the next `get` loads). */
  delete(key: K): void {
    this.entries.delete(key);
  }
}
