import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatHtml, Html, render, type Text } from '../i18n/catalogue.js';
import { parseLocale, requestedLanguage, type Language } from '../i18n/language.js';

/**
 * Small server-rendered pages (forms a link in an e-mail leads to): one layout, everything escaped,
 * no script, a strict Content-Security-Policy. Every word comes from the catalogue, in the page's
 * language (`pageLanguage`); services write the body with `PageWords` and `escapeHtml`.
 */

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Headers every page answers with: no script, no framing, no caching of a page that holds a token. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

export interface PageOptions {
  title: string;
  /** Already-escaped HTML of the page's content. */
  body: string;
  lang?: Language;
}

/**
 * The language of a page a link leads to: the one the link carries (`locale`, written by the
 * e-mail that holds it), else the account's the page is about, else the browser's
 * (Accept-Language), else English.
 */
export function pageLanguage(request: FastifyRequest, linked: string | undefined, account?: Language | null): Language {
  return parseLocale(linked) ?? account ?? requestedLanguage(request.headers['accept-language']) ?? 'en';
}

/** A page's words in its language: plain text (the layout escapes it) and HTML (escaped here). */
export interface PageWords {
  language: Language;
  text: (text: Text) => string;
  html: (text: Text) => string;
}

export const pageWords = (language: Language): PageWords => ({
  language,
  text: (text) => render(text, language),
  html: (text) => formatHtml(text, language, escapeHtml),
});

/** Answers with a page: its title and body in the words' language, with PAGE_HEADERS. */
export const sendPage = (reply: FastifyReply, status: number, words: PageWords, title: Text, body: string) =>
  reply
    .code(status)
    .headers(PAGE_HEADERS)
    .send(renderPage({ title: words.text(title), body, lang: words.language }));

/** Markup for a sentence's parameter: a value in bold. */
export const strong = (value: string) => new Html(`<strong>${escapeHtml(value)}</strong>`);

export function renderPage({ title, body, lang = 'en' }: PageOptions): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; background: #f3f4f6; color: #111827; margin: 0; }
  main { max-width: 26rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: 0.75rem; box-shadow: 0 1px 3px rgba(0,0,0,.1); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; font-weight: 600; margin: 1rem 0 0.3rem; }
  input { width: 100%; box-sizing: border-box; padding: 0.6rem; border: 1px solid #d1d5db; border-radius: 0.4rem; font-size: 1rem; }
  button { margin-top: 1.5rem; width: 100%; padding: 0.7rem; border: 0; border-radius: 0.4rem; background: #2563eb; color: #fff; font-size: 1rem; cursor: pointer; }
  .error { background: #fef2f2; color: #991b1b; padding: 0.7rem; border-radius: 0.4rem; }
  .ok { background: #ecfdf5; color: #065f46; padding: 0.7rem; border-radius: 0.4rem; }
  .muted { color: #6b7280; font-size: 0.9rem; }
</style>
</head>
<body><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body>
</html>`;
}

/** A labelled input. */
export const field = (name: string, label: string, type = 'text', extra = '') =>
  `<label for="${name}">${escapeHtml(label)}</label><input id="${name}" name="${name}" type="${type}" ${extra}>`;

/** A notice above a form: a refusal or a confirmation. */
export const notice = (kind: 'error' | 'ok', text: string) => `<p class="${kind}">${escapeHtml(text)}</p>`;

export const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
