import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/**
 * A headless Chromium for tests of pages people look at (playwright-core drives Debian's
 * `chromium`; CHROMIUM_PATH overrides where it is). .ci/run installs the package when missing.
 */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p): p is string => !!p && fs.existsSync(p));
  if (!found) throw new Error('no Chromium found: install Debian\'s "chromium" package or set CHROMIUM_PATH');
  return found;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Root in containers has no user namespaces for Chromium's sandbox.
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
}

/** Where screenshots go for a person to look at (SCREENSHOT_DIR, default the system's temp directory). */
export function screenshotPath(name: string): string {
  const dir = process.env.SCREENSHOT_DIR ?? path.join(process.env.TMPDIR ?? '/tmp', 'ponte-screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}
