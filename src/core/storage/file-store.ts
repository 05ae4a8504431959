import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Blob storage for uploaded files (message attachments today). Files are addressed only by a
 * storage key the store generates: 128 random bits as 32 lowercase hex characters. A key is
 * unguessable (links that carry it work like signed URLs) and path-safe: no part of a path ever
 * comes from the client. The original file name and content type are metadata that the caller
 * keeps in its database row; the store never uses them to build a path.
 */
export interface FileStore {
  /** Streams `source` into the store; the file appears atomically once fully written. */
  save(source: Readable, meta: SaveMeta): Promise<SavedFile>;
  /**
   * A read stream and the byte size of a stored file, or `undefined` when it does not exist.
   * `pickRange` is called with the file's size and may return the part to read (`start..end`,
   * inclusive; `end` is clamped to the file); if it throws, nothing stays open.
   */
  openRead(storageKey: string, pickRange?: (size: number) => ByteRange | null): Promise<StoredBlob | undefined>;
  /** Deletes files; keys that do not exist (or are malformed) are ignored. */
  remove(storageKeys: readonly string[]): Promise<void>;
}

export interface SaveMeta {
  /** The client's file name, already sanitized (see `sanitizeFileName`); metadata only. */
  fileName: string;
  contentType: string;
  /** Fail with `FileTooLargeError` (nothing kept) once more than this many bytes arrive. */
  maxBytes?: number;
}

export interface SavedFile {
  storageKey: string;
  size: number;
}

export interface StoredBlob {
  stream: Readable;
  /** The whole file's size, whatever range was asked for. */
  size: number;
  /** The bytes the stream yields, or null for the whole file. */
  range: ByteRange | null;
}

export interface ByteRange {
  start: number;
  end: number;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File larger than ${maxBytes} bytes`);
    this.name = 'FileTooLargeError';
  }
}

const KEY_PATTERN = /^[0-9a-f]{32}$/;

/** True when `value` has the exact shape of a storage key (it may still not exist). */
export const isStorageKey = (value: string): boolean => KEY_PATTERN.test(value);

/** A new storage key: 16 random bytes (128 bits) as hex. */
export const newStorageKey = (): string => randomBytes(16).toString('hex');

/**
 * Files live on the local disk under `root` (`<DATA_DIR>/uploads`), fanned out over two levels
 * of directories by key prefix (`ab/cd/abcd…`) so no directory grows past ~65k entries.
 * Writes go to `root/.tmp` first and are renamed into place (same file system, so the rename is
 * atomic): a crash or an aborted upload never leaves a half-written file under a real key.
 */
export class LocalFileStore implements FileStore {
  private readonly root: string;
  private readonly tmpDir: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, '.tmp');
  }

  /** The absolute path of a key's file. Throws on anything that is not a well-formed key. */
  pathOf(storageKey: string): string {
    if (!isStorageKey(storageKey)) throw new Error('Invalid storage key');
    const full = path.join(this.root, storageKey.slice(0, 2), storageKey.slice(2, 4), storageKey);
    // Belt and braces: the pattern already rules out separators and dots.
    if (path.dirname(path.dirname(path.dirname(full))) !== this.root) throw new Error('Invalid storage key');
    return full;
  }

  async save(source: Readable, meta: SaveMeta): Promise<SavedFile> {
    const storageKey = newStorageKey();
    const finalPath = this.pathOf(storageKey);
    await mkdir(this.tmpDir, { recursive: true });
    const tmpPath = path.join(this.tmpDir, `${storageKey}.part`);
    let size = 0;
    const limit = meta.maxBytes;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (limit !== undefined && size > limit) done(new FileTooLargeError(limit));
        else done(null, chunk);
      },
    });
    try {
      // Some parsers destroy a part's stream before anyone reads it (a body cut off mid-part);
      // such a stream never ends, so it must not be waited for.
      if (source.destroyed) throw new Error('The upload stream was closed before it was read');
      await pipeline(source, counter, createWriteStream(tmpPath, { flags: 'wx', mode: 0o640 }));
      await mkdir(path.dirname(finalPath), { recursive: true });
      await rename(tmpPath, finalPath);
    } catch (err) {
      await rm(tmpPath, { force: true });
      throw err;
    }
    return { storageKey, size };
  }

  async openRead(storageKey: string, pickRange?: (size: number) => ByteRange | null): Promise<StoredBlob | undefined> {
    if (!isStorageKey(storageKey)) return undefined;
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(storageKey), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    try {
      // Stat the open handle, not the path: a concurrent remove cannot pull the file away mid-read.
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return undefined;
      }
      const picked = pickRange ? pickRange(info.size) : null;
      const range = picked ? { start: picked.start, end: Math.min(picked.end, info.size - 1) } : null;
      const stream = range
        ? handle.createReadStream({ start: range.start, end: range.end })
        : handle.createReadStream();
      return { stream, size: info.size, range };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async remove(storageKeys: readonly string[]): Promise<void> {
    for (const key of storageKeys) {
      if (!isStorageKey(key)) continue;
      await rm(this.pathOf(key), { force: true });
    }
  }
}

/** The store of a service's uploads: `<dataDir>/uploads`. */
export function createLocalFileStore(dataDir: string): LocalFileStore {
  return new LocalFileStore(path.join(dataDir, 'uploads'));
}

/**
 * 150 bytes: percent-encoded (at most 3 characters a byte) the name still fits the router's
 * 500-character limit on a path parameter, so every attachment URL stays routable.
 */
const MAX_NAME_BYTES = 150;

/**
 * A file name safe to store, show and put in a URL path segment or a Content-Disposition header:
 * the last path component only, NFC-normalized, without control characters, quotes, slashes,
 * reserved Windows characters or leading dots, whitespace collapsed, at most 150 UTF-8 bytes
 * (the extension is kept when shortening). Falls back to `fallback` when nothing is left.
 */
export function sanitizeFileName(raw: string | undefined | null, fallback = 'file'): string {
  let name = String(raw ?? '').normalize('NFC');
  name = cleanName(name.split(/[\\/]/).pop() ?? '');
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
    const ext = path.extname(name).slice(0, 16);
    // Cut by code points (never inside a surrogate pair); each is at least one byte.
    const chars = [...name.slice(0, name.length - ext.length)].slice(0, MAX_NAME_BYTES);
    while (chars.length > 0 && Buffer.byteLength(chars.join('') + ext) > MAX_NAME_BYTES) chars.pop();
    name = cleanName(chars.join('') + ext);
  }
  return name === '' ? fallback : name;
}

function cleanName(name: string): string {
  return (
    name
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
      .replace(/["'<>:|?*%#;\\/]/g, '_')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^[.\s]+/, '')
      .replace(/[.\s]+$/, '')
  );
}
