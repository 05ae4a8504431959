import { describe, expect, it } from 'vitest';
import { browserLanguage, isLanguage, uiLanguage } from './language.js';

describe("the UI's language", () => {
  it("is the first of the browser's languages that the apps have", () => {
    expect(browserLanguage(['pt-BR', 'en'])).toBe('pt-BR');
    expect(browserLanguage(['pt-PT'])).toBe('pt-BR');
    expect(browserLanguage(['de-DE', 'en-GB', 'pt'])).toBe('en');
    expect(browserLanguage(['fr', 'PT'])).toBe('pt-BR');
    expect(browserLanguage([])).toBe('en');
  });

  it("is the user's choice when there is one", () => {
    expect(uiLanguage('en', ['pt-BR'])).toBe('en');
    expect(uiLanguage(null, ['pt-BR'])).toBe('pt-BR');
    expect(isLanguage('pt-BR')).toBe(true);
    expect(isLanguage('pt')).toBe(false);
  });
});
