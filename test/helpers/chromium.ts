import fs from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/** Where the browser tests' Chromium is, and how it is launched (no vitest here: browser-server.ts uses it too). */

export const INSTALL_CHROMIUM =
  "apt-get install chromium (Debian's package), or set CHROMIUM_PATH to a Chromium binary";

/** Whether this run has browser tests (not on the PostgreSQL pass). */
export const BROWSER_TESTS = !process.env.TEST_DATABASE_URL;

export function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p): p is string => !!p && fs.existsSync(p));
}

export function chromiumPath(): string {
  const found = findChromium();
  if (!found) throw new Error(`no Chromium found for the browser tests: ${INSTALL_CHROMIUM}`);
  return found;
}

export const chromiumLaunchOptions = (): LaunchOptions => ({
  executablePath: chromiumPath(),
  headless: true,
  // Root in containers has no user namespaces for Chromium's sandbox.
  args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
});
