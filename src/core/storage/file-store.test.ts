import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTooLargeError, isStorageKey, LocalFileStore, sanitizeFileName } from './file-store.js';
import { classifyFile } from './file-formats.js';

let dir: string;
let store: LocalFileStore;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-store-'));
  store = new LocalFileStore(path.join(dir, 'uploads'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every regular file under the store's root (temp files included). */
function filesOnDisk(): string[] {
  const root = path.join(dir, 'uploads');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) =>
    fs.statSync(path.join(root, p)).isFile(),
  );
}

const meta = { fileName: 'a.txt', contentType: 'text/plain' };

describe('LocalFileStore', () => {
  it('saves a stream under a random key and reads it back', async () => {
    const saved = await store.save(Readable.from([Buffer.from('hello '), Buffer.from('world')]), meta);
    expect(saved.size).toBe(11);
    expect(isStorageKey(saved.storageKey)).toBe(true);
    const blob = await store.openRead(saved.storageKey);
    expect(blob?.size).toBe(11);
    expect(await text(blob!.stream)).toBe('hello world');
    expect(filesOnDisk()).toEqual([
      path.join(saved.storageKey.slice(0, 2), saved.storageKey.slice(2, 4), saved.storageKey),
    ]);
  });

  it('gives every file its own 128-bit key, never derived from the name', async () => {
    const a = await store.save(Readable.from(['x']), { fileName: '../../etc/passwd', contentType: 'text/plain' });
    const b = await store.save(Readable.from(['x']), { fileName: '../../etc/passwd', contentType: 'text/plain' });
    expect(a.storageKey).not.toBe(b.storageKey);
    expect(a.storageKey).toMatch(/^[0-9a-f]{32}$/);
    expect(filesOnDisk().every((p) => !p.includes('passwd'))).toBe(true);
  });

  it('reads a byte range', async () => {
    const saved = await store.save(Readable.from(['0123456789']), meta);
    const blob = await store.openRead(saved.storageKey, () => ({ start: 2, end: 100 }));
    expect(blob?.range).toEqual({ start: 2, end: 9 });
    expect(await text(blob!.stream)).toBe('23456789');
  });

  it('keeps nothing when the source fails or exceeds maxBytes', async () => {
    const failing = new Readable({
      read() {
        this.push('partial');
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.save(failing, meta)).rejects.toThrow('client went away');
    await expect(
      store.save(Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), { ...meta, maxBytes: 15 }),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect(filesOnDisk()).toEqual([]);
  });

  it('removes files, ignoring missing and malformed keys', async () => {
    const a = await store.save(Readable.from(['a']), meta);
    const b = await store.save(Readable.from(['b']), meta);
    await store.remove([a.storageKey, 'f'.repeat(32), '../../x', '']);
    expect(await store.openRead(a.storageKey)).toBeUndefined();
    expect(await store.openRead(b.storageKey)).toBeDefined();
  });

  it('refuses keys that are not exactly 32 hex characters', async () => {
    for (const bad of [
      '../' + 'a'.repeat(29),
      'A'.repeat(32),
      'a'.repeat(31),
      'a'.repeat(33),
      `${'a'.repeat(30)}/.`,
      '',
      '..',
    ]) {
      expect(() => store.pathOf(bad), bad).toThrow('Invalid storage key');
      expect(await store.openRead(bad)).toBeUndefined();
    }
    expect(store.pathOf('ab'.repeat(16))).toBe(path.join(dir, 'uploads', 'ab', 'ab', 'ab'.repeat(16)));
  });
});

describe('sanitizeFileName', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['C:\\Users\\me\\scan.png', 'scan.png'],
    ['../../etc/passwd', 'passwd'],
    ['..hidden', 'hidden'],
    ['a"b<c>:d|e?f*g%h#i;j.txt', 'a_b_c__d_e_f_g_h_i_j.txt'],
    ['line\r\nbreak\u0000.txt', 'linebreak.txt'],
    ['  spaced   out  .doc  ', 'spaced out .doc'],
    ['Relatório ção.xlsx', 'Relatório ção.xlsx'],
    ['', 'file'],
    ['...', 'file'],
  ])('%j -> %j', (raw, expected) => {
    expect(sanitizeFileName(raw)).toBe(expected);
    expect(sanitizeFileName(expected)).toBe(expected);
  });

  it('shortens long names to 150 bytes keeping the extension', () => {
    const name = sanitizeFileName(`${'é'.repeat(300)}.pdf`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(150);
    expect(Buffer.byteLength(name)).toBeGreaterThan(140);
    expect(name.endsWith('é.pdf')).toBe(true);
    expect(sanitizeFileName(name)).toBe(name);
  });
});

describe('classifyFile', () => {
  it('accepts the supported formats and canonicalizes the type', () => {
    expect(classifyFile('image/jpg', 'photo.JPG')).toEqual({
      kind: 'image',
      contentType: 'image/jpeg',
      extension: 'jpg',
    });
    expect(classifyFile('application/pdf', 'doc.pdf')).toEqual({
      kind: 'file',
      contentType: 'application/pdf',
      extension: 'pdf',
    });
    expect(classifyFile('audio/ogg; codecs=opus', 'voice.ogg')).toEqual({
      kind: 'audio',
      contentType: 'audio/ogg',
      extension: 'ogg',
    });
    expect(classifyFile('video/quicktime', 'clip.mov')).toMatchObject({ kind: 'video' });
    expect(classifyFile('application/octet-stream', 'sheet.xlsx')).toMatchObject({ kind: 'file', extension: 'xlsx' });
    expect(classifyFile('application/vnd.ms-excel', 'export.csv')).toMatchObject({ kind: 'file' });
    expect(classifyFile('image/png', 'noextension')).toEqual({
      kind: 'image',
      contentType: 'image/png',
      extension: null,
    });
  });

  it('keeps unlisted audio and video subtypes as plain downloads (security review: video/x-html served inline)', () => {
    expect(classifyFile('video/x-html', 'page.html')).toEqual({
      kind: 'file',
      contentType: 'application/octet-stream',
      extension: 'html',
    });
    expect(classifyFile('audio/x-evil+xml', 'a.svg')).toEqual({
      kind: 'file',
      contentType: 'application/octet-stream',
      extension: 'svg',
    });
    expect(classifyFile('audio/mp3', 'song.mp3')).toEqual({
      kind: 'audio',
      contentType: 'audio/mpeg',
      extension: 'mp3',
    });
    expect(classifyFile('audio/opus', 'voice.opus')).toEqual({
      kind: 'audio',
      contentType: 'audio/ogg',
      extension: 'opus',
    });
    expect(classifyFile('application/octet-stream', 'voice.amr')).toEqual({
      kind: 'audio',
      contentType: 'audio/amr',
      extension: 'amr',
    });
  });

  it('refuses other types and mismatched extensions', () => {
    expect(classifyFile('text/html', 'page.html')).toBeUndefined();
    expect(classifyFile('image/svg+xml', 'logo.svg')).toBeUndefined();
    expect(classifyFile('application/x-msdownload', 'setup.exe')).toBeUndefined();
    expect(classifyFile('image/png', 'evil.html')).toBeUndefined();
    expect(classifyFile('audio/mpeg', 'song.exe')).toBeUndefined();
    expect(classifyFile('video/mp4', 'clip.html')).toBeUndefined();
    expect(classifyFile('application/octet-stream', 'run.sh')).toBeUndefined();
    expect(classifyFile('application/octet-stream', 'noextension')).toBeUndefined();
  });
});
