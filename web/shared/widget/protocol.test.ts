import { describe, expect, it } from 'vitest';
import { envelope, readFrameMessage, readHostMessage, widgetLanguage } from './protocol.js';

describe('the loader and frame messages', () => {
  it('reads only enveloped messages of the right side', () => {
    const init = envelope({ type: 'init', credential: 'abc', locale: 'pt_BR', open: false } as const);
    expect(readHostMessage(init)).toEqual(init);
    expect(readFrameMessage(init)).toBeNull();
    const unread = envelope({ type: 'unread', count: 2 } as const);
    expect(readFrameMessage(unread)).toEqual(unread);
    expect(readHostMessage(unread)).toBeNull();
    for (const other of [
      null,
      'init',
      { type: 'init' },
      { ponte: 'other', type: 'init' },
      { ponte: 'widget', type: 'boom' },
    ])
      expect([readHostMessage(other), readFrameMessage(other)]).toEqual([null, null]);
  });

  it("takes Chatwoot's locale names", () => {
    expect(widgetLanguage('pt_BR')).toBe('pt-BR');
    expect(widgetLanguage('pt-br')).toBe('pt-BR');
    expect(widgetLanguage('pt')).toBe('pt-BR');
    expect(widgetLanguage('en')).toBe('en');
    expect(widgetLanguage('en_GB')).toBe('en');
    expect(widgetLanguage('fr')).toBeNull();
    expect(widgetLanguage('')).toBeNull();
    expect(widgetLanguage(undefined)).toBeNull();
  });
});
