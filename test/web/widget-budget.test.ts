import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';

// The website chat's budgets, measured on the built files as production serves them (gzip): the
// loader every page of a customer's site fetches (dist/web/packs/js/sdk.js) at most 5 KB, and the
// frame's first load (its entry with every chunk it imports and their stylesheets) at most 25 KB.

const dist = path.resolve(import.meta.dirname, '../../dist/web');
const gzip = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

function built(file: string): string {
  const full = path.join(dist, file);
  if (!fs.existsSync(full)) throw new Error(`${full} is missing: run npm run build:web`);
  return full;
}

describe('the website chat budgets', () => {
  it('the loader is one script of at most 5 KB gzip', () => {
    const size = gzip(built('packs/js/sdk.js'));
    expect(fs.readdirSync(path.join(dist, 'packs/js')).filter((f) => f.endsWith('.js'))).toEqual(['sdk.js']);
    expect(size, `sdk.js ${kb(size)} gzip`).toBeLessThanOrEqual(5 * 1024);
  });

  it("the frame's JavaScript and CSS are at most 25 KB gzip", () => {
    const manifest = JSON.parse(fs.readFileSync(built('widget/.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
      for (const imported of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(imported);
    };
    const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
    expect(entries).toHaveLength(1);
    entries.forEach(visit);
    const sizes = [...files].map((file) => ({ file, gzip: gzip(path.join(dist, 'widget', file)) }));
    const total = sizes.reduce((n, s) => n + s.gzip, 0);
    expect(sizes.some((s) => s.file.endsWith('.css'))).toBe(true);
    const listing = sizes.map((s) => `${kb(s.gzip).padStart(8)}  ${s.file}`).join('\n');
    expect(total, `frame ${kb(total)} gzip:\n${listing}`).toBeLessThanOrEqual(25 * 1024);
  });
});
