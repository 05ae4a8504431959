import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { INSTALL_CHROMIUM } from './chromium.js';

/**
 * Tests of pages people look at run in a real headless Chromium (playwright-core drives Debian's
 * `chromium`; CHROMIUM_PATH overrides where it is; .ci/run installs the package when missing).
 * One Chromium serves the whole run: browser-server.ts (vitest's globalSetup) launches it and
 * each test file connects to it. UI tests run on the SQLite pass only: on the PostgreSQL pass
 * (TEST_DATABASE_URL set) they are skipped, as the pages do not depend on the database.
 */

export { BROWSER_TESTS, chromiumPath, INSTALL_CHROMIUM } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium (browser-server.ts), or '' when there is none. */
    chromiumEndpoint: string;
  }
}

/** The run's Chromium, connected for this test file (close it in afterAll: the browser itself stays up). */
export async function connectBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (!endpoint) throw new Error(`the run has no Chromium: ${INSTALL_CHROMIUM}`);
  return chromium.connect(endpoint);
}

/** Where screenshots go for a person to look at (SCREENSHOT_DIR, default the system's temp directory). */
export function screenshotPath(name: string): string {
  const dir = process.env.SCREENSHOT_DIR ?? path.join(process.env.TMPDIR ?? '/tmp', 'ponte-screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now
 * (WCAG 2.1 A and AA, and axe's best practices). axe is evaluated by the driver, which the
 * page's Content-Security-Policy does not govern, so the page's own policy stays strict.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
      .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`,
  )) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
