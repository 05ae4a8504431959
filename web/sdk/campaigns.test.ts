import { describe, expect, it } from 'vitest';
import { urlMatches } from './campaigns.js';

describe("a campaign's page rule", () => {
  it('matches every page without a pattern, and * as any characters', () => {
    expect(urlMatches(undefined, 'https://shop.test/anything')).toBe(true);
    expect(urlMatches('', 'https://shop.test/')).toBe(true);
    expect(urlMatches('https://shop.test/pricing', 'https://shop.test/pricing')).toBe(true);
    expect(urlMatches('https://shop.test/pricing', 'https://shop.test/pricing/team')).toBe(false);
    expect(urlMatches('https://shop.test/products/*', 'https://shop.test/products/mug?c=blue')).toBe(true);
    expect(urlMatches('https://shop.test/products/*', 'https://shop.test/about')).toBe(false);
    expect(urlMatches('*/checkout*', 'https://shop.test/checkout/step-2')).toBe(true);
  });

  it('takes the rest of the pattern literally', () => {
    expect(urlMatches('https://shop.test/a.b?x=1', 'https://shop.test/a.b?x=1')).toBe(true);
    expect(urlMatches('https://shop.test/a.b?x=1', 'https://shop.test/aXb?x=1')).toBe(false);
    expect(urlMatches('https://shop.test/(promo)', 'https://shop.test/(promo)')).toBe(true);
  });
});
