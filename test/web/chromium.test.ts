import { describe, expect, it } from 'vitest';
import { BROWSER_TESTS, INSTALL_CHROMIUM } from '../helpers/browser.js';
import { findChromium } from '../helpers/chromium.js';

// The browser tests need a Chromium on the machine; without one this fails saying how to get it.
describe.skipIf(!BROWSER_TESTS)('the browser tests', () => {
  it('have a Chromium to run in', () => {
    expect(findChromium(), `no Chromium for the browser tests: ${INSTALL_CHROMIUM}`).toBeDefined();
  });
});
