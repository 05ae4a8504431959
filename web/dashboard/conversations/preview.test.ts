import { describe, expect, it } from 'vitest';
import { plainLine } from './preview.js';

describe('a message as one line of plain text', () => {
  it("drops Markdown's marks and keeps the words", () => {
    expect(plainLine('I would like a **refund**, _please_.')).toBe('I would like a refund, please.');
    expect(plainLine('# Title\n> quoted\nsee [the site](https://example.com) and `code`')).toBe(
      'Title quoted see the site and code',
    );
  });

  it('leaves lone marks and words with underscores alone', () => {
    expect(plainLine('2 * 3 = 6, order_id stays')).toBe('2 * 3 = 6, order_id stays');
    expect(plainLine(null)).toBe('');
  });
});
