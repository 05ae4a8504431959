import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { BROWSER_TESTS, chromiumLaunchOptions, findChromium } from './chromium.js';

/**
 * vitest's globalSetup: one Chromium for the whole run (each browser test file connects to it,
 * browser.ts `connectBrowser`), so two cores are not shared by a browser per file. Before it,
 * the web app is built when its sources are newer than dist/web (browser tests run against the
 * built files, as production serves them). Nothing of this on the PostgreSQL pass.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** One file of each build (dashboard, website chat frame, its loader): the oldest says when web/ was last built. */
const BUILT_FILES = ['dist/web/app/index.html', 'dist/web/widget/index.html', 'dist/web/packs/js/sdk.js'].map((f) =>
  path.join(root, f),
);

function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestUnder(full));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the web app when dist/web is missing or older than web/ (a change not built yet). */
function ensureWebBuild(): void {
  const built = Math.min(...BUILT_FILES.map((f) => (fs.existsSync(f) ? fs.statSync(f).mtimeMs : 0)));
  if (built >= newestUnder(path.join(root, 'web'))) return;
  process.stderr.write('browser tests: web/ changed since the last build; running npm run build:web\n');
  const result = spawnSync('npm', ['run', 'build:web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build:web failed');
}

export default async function setup(project: TestProject) {
  project.provide('chromiumEndpoint', '');
  ensureWebBuild();
  // Without Chromium, the browser tests fail saying how to install it (browser.ts, chromium.test.ts).
  if (!BROWSER_TESTS || !findChromium()) return undefined;
  const server = await chromium.launchServer(chromiumLaunchOptions());
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
