/**
 * A bounded in-process cache of what the database says, emptied whenever a change epoch moves
 * (core/db/change-epoch.ts): each use reads the epoch once (`open`), and what it finds cached is
 * as fresh as the database was at that read. Only what was found is cached, never an absence, so
 * unknown keys (a guessed token) cannot fill it.
 *
 * Concurrent requests may read different epochs. A request stores what it loaded only when its
 * epoch is still the cache's: a slow request that read epoch 4, then loaded a row that changed
 * before a faster request saw epoch 5 and emptied the cache, must not put the old row back under 5.
 *
 * This relies on reads seeing only committed data: true on PostgreSQL; on SQLite the group-commit
 * driver answers a read that saw an open batch only once that batch committed, and fails it if the
 * batch does not (core/db/group-commit.ts), so nothing rolled back is ever loaded.
 */
export class EpochCache {
  private readonly entries: LruMap<string, unknown>;
  private epoch: number | undefined;

  /** Without `readEpoch`, the cache is only opened at epochs its owner reads (`openAt`). */
  constructor(
    private readonly readEpoch: (() => Promise<number | undefined>) | undefined,
    maxEntries = 10_000,
  ) {
    this.entries = new LruMap(maxEntries);
  }

  /** Reads the epoch, empties the cache if it moved on, and returns a view for one request. */
  async open(): Promise<EpochView> {
    if (!this.readEpoch) throw new Error('this cache is opened at epochs its owner reads (openAt)');
    return this.openAt(await this.readEpoch());
  }

  /** As `open`, with an epoch the caller has just read itself (with others, in one statement). */
  openAt(seen: number | undefined): EpochView {
    // Any other value empties it, a lower one too (a restored backup): the epoch is a version
    // stamp, not a clock. Out-of-order reads of concurrent requests cost an extra emptying, no more.
    if (seen !== undefined && seen !== this.epoch) {
      this.entries.clear();
      this.epoch = seen;
    }
    return new EpochView(this, seen);
  }

  /** @internal */
  lookup(key: string): unknown {
    return this.entries.get(key);
  }

  /** @internal */
  store(epoch: number | undefined, key: string, value: unknown): void {
    if (epoch !== undefined && epoch === this.epoch) this.entries.set(key, value);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The cache as one request sees it: the epoch it read decides whether what it loads is kept. */
export class EpochView {
  constructor(
    private readonly cache: EpochCache,
    private readonly epoch: number | undefined,
  ) {}

  /**
   * The cached value of `key`, or else what `load` finds (kept when found). The caller owns the
   * key space: one prefix per kind of value, so a key always names a value of the same type.
   */
  async through<T>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.epoch === undefined) return load();
    const cached = this.cache.lookup(key);
    if (cached !== undefined) return cached as T;
    const value = await load();
    if (value !== undefined) this.cache.store(this.epoch, key, value);
    return value;
  }
}

/** A Map that keeps at most `max` entries, forgetting the least recently used first. */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new Error('an LRU map needs room for at least one entry');
  }

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    // Map keeps insertion order: moving the key to the end makes the first key the least recent.
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}
