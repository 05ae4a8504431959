import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing (fonts and images are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map)$/;
/** Smaller files are sent as they are: the headers would cost more than the saving. */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible asset once the bundle is written,
 * so the server sends compressed files without compressing on each request (@fastify/static's
 * `preCompressed`). Brotli at its best quality: it runs once per build.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'ponte-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      await Promise.all(
        filesUnder(outDir)
          .filter((f) => COMPRESSIBLE.test(f))
          .map(compressFile),
      );
    },
  };
}

async function compressFile(file: string): Promise<void> {
  const data = await fs.promises.readFile(file);
  if (data.length < MIN_BYTES) return;
  const brotli = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  const gzip = zlib.gzipSync(data, { level: 9 });
  await Promise.all([fs.promises.writeFile(`${file}.br`, brotli), fs.promises.writeFile(`${file}.gz`, gzip)]);
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}
