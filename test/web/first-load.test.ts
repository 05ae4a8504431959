import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';

// The dashboard's first load, measured on the built files (dist/web/app, as production serves
// them): the entry with every chunk it imports (the page preloads them), their stylesheets, the
// fonts those stylesheets use for Latin text, and the larger of the two language catalogues
// (fetched before the first render). Gzip, as the server sends them. Budget: 200 KB.
// A heavy screen's route adds its own budget over that first load (the deal board: 60 KB).

const BUDGET_BYTES = 200 * 1024;
const BOARD_BUDGET_BYTES = 60 * 1024;
const dir = path.resolve(import.meta.dirname, '../../dist/web/app');

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

function readManifest(): Record<string, Chunk> {
  const file = path.join(dir, '.vite/manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build:web`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Chunk>;
}

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dir, file)), { level: 9 }).length;

/** Fonts of a stylesheet whose unicode-range covers basic Latin letters (the ones a Latin page fetches). */
function latinFonts(cssFile: string): string[] {
  const css = fs.readFileSync(path.join(dir, cssFile), 'utf8');
  const faces = css.match(/@font-face\s*{[^}]*}/g) ?? [];
  return faces.flatMap((face) => {
    const range = /unicode-range:\s*([^;}]+)/.exec(face)?.[1];
    const coversLatin =
      !range ||
      range.split(',').some((part) => {
        const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
        const start = parseInt(from.replace(/\?/g, '0'), 16);
        const end = to ? parseInt(to, 16) : parseInt(from.replace(/\?/g, 'F'), 16);
        return start <= 0x61 && end >= 0x7a;
      });
    if (!coversLatin) return [];
    return [...face.matchAll(/url\(([^)]+\.woff2)\)/g)].map((m) =>
      path.posix.join(path.posix.dirname(cssFile), m[1].replace(/^['"]|['"]$/g, '').replace(/^\/app\//, '../')),
    );
  });
}

export function firstLoad(manifest: Record<string, Chunk>): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) {
      files.add(css);
      for (const font of latinFonts(css)) files.add(path.posix.normalize(font));
    }
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  if (!entry) throw new Error('the manifest has no entry');
  visit(entry);
  const catalogues = Object.values(manifest).filter((c) => c.src && /i18n\/[^/]+\.json$/.test(c.src));
  if (catalogues.length < 2) throw new Error('the language catalogues are not separate chunks');
  const largest = catalogues.reduce((a, b) => (gzipSize(a.file) >= gzipSize(b.file) ? a : b));
  files.add(largest.file);
  return [...files];
}

/** What opening a lazy route fetches beyond the first load: its chunk, the chunks it imports, their CSS. */
export function routeAddition(manifest: Record<string, Chunk>, src: string): string[] {
  const loaded = new Set(firstLoad(manifest));
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || loaded.has(chunk.file) || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) if (!loaded.has(css)) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  if (!manifest[src]) throw new Error(`the manifest has no ${src}`);
  visit(src);
  return [...files];
}

const listing = (sizes: { file: string; gzip: number }[]) =>
  sizes
    .sort((a, b) => b.gzip - a.gzip)
    .map((s) => `${(s.gzip / 1024).toFixed(1).padStart(6)} KB  ${s.file}`)
    .join('\n');

describe('the dashboard first load', () => {
  it('is at most 200 KB gzip: entry, preloaded chunks, CSS, Latin fonts and one catalogue', () => {
    const files = firstLoad(readManifest());
    const sizes = files.map((file) => ({ file, gzip: gzipSize(file) }));
    const total = sizes.reduce((n, s) => n + s.gzip, 0);
    // The font is there, and so is the stylesheet: the budget counts what a browser fetches.
    expect(files.some((f) => f.endsWith('.woff2'))).toBe(true);
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    expect(total, `first load ${(total / 1024).toFixed(1)} KB gzip:\n${listing(sizes)}`).toBeLessThanOrEqual(
      BUDGET_BYTES,
    );
  });

  it('grows by at most 60 KB gzip when the deal board opens', () => {
    const files = routeAddition(readManifest(), 'views/board/BoardView.vue');
    const sizes = files.map((file) => ({ file, gzip: gzipSize(file) }));
    const total = sizes.reduce((n, s) => n + s.gzip, 0);
    // The board's own chunk (its drag and drop among it) is counted, not only what it shares.
    expect(files.some((f) => /BoardView-.*\.js$/.test(f))).toBe(true);
    expect(total, `the board adds ${(total / 1024).toFixed(1)} KB gzip:\n${listing(sizes)}`).toBeLessThanOrEqual(
      BOARD_BUDGET_BYTES,
    );
  });
});
