/**
 * A full disk or database (decisions §2's one operational 5xx): writes are refused with 503
 * `storage_full` and `Retry-After`, `/health` says `degraded` while they are (a restart would not
 * help, so it keeps answering 200), and `/metrics` counts the refusals. decisions/0034.
 */

/** How long a client is asked to wait, and how long a refusal keeps `/health` degraded without another. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 60;

/**
 * Whether an error says the storage is full: SQLite's SQLITE_FULL (the disk, or the database's
 * max_page_count), PostgreSQL's disk_full (53100), and a file write's ENOSPC or EDQUOT (uploads).
 */
export function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * What `/health` reports of the storage: `storage_full` from a refused write until a write
 * succeeds again, or until STORAGE_FULL_RETRY_AFTER_SECONDS pass without another refusal.
 */
export class StorageHealth {
  #lastRefusal = Number.NEGATIVE_INFINITY;
  /** Whether the last write the service saw was refused. */
  #failing = false;

  constructor(private readonly clock: () => number = Date.now) {}

  /** A write was refused because the storage is full. */
  refused(): void {
    this.#lastRefusal = this.clock();
    this.#failing = true;
  }

  /** A write went through (a write request answered below 400). */
  wrote(): void {
    this.#failing = false;
  }

  /** The reasons the service is degraded; empty when it is not. */
  reasons(): string[] {
    const recent = this.clock() - this.#lastRefusal < STORAGE_FULL_RETRY_AFTER_SECONDS * 1000;
    return this.#failing && recent ? ['storage_full'] : [];
  }
}
