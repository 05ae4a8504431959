import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMABLE_APP_CSP, registerWebAssets, registerWebScript, WEB_APP_CSP } from './web-assets.js';
import '../i18n/core.messages.js';

// A built app in a folder (as Vite writes it) served under /app: what each kind of file is
// answered with, and what a path that is not a file gets.
let dir: string;
let app: FastifyInstance;
const PAGE = '<!doctype html><title>app</title><script type="module" src="/app/assets/index-AbC123.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-web-assets-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE);
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dir, 'assets/index-AbC123.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets/index-AbC123.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(dir, 'assets/index-AbC123.js.gz'), zlib.gzipSync(SCRIPT));
  app = Fastify();
  app.get('/api/thing', async () => ({ ok: true }));
  await registerWebAssets(app, { root: dir, prefix: '/app' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a built web app', () => {
  it('serves hashed files cached for a year, compressed when the browser takes it', async () => {
    const plain = await app.inject({ url: '/app/assets/index-AbC123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/javascript/);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.body).toBe(SCRIPT);

    const br = await app.inject({ url: '/app/assets/index-AbC123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    const gz = await app.inject({ url: '/app/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    // The compressed copies are not files of the app.
    expect((await app.inject({ url: '/app/assets/index-AbC123.js.gz' })).statusCode).toBe(404);
  });

  it('answers the page, revalidated on every load, under a strict policy', async () => {
    for (const url of ['/app', '/app/', '/app/index.html']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(PAGE);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(WEB_APP_CSP);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    expect(WEB_APP_CSP).toContain("script-src 'self'");
    expect(WEB_APP_CSP).not.toContain('unsafe-inline');
    expect(WEB_APP_CSP).toContain("frame-ancestors 'none'");
  });

  it("answers the page for the app's own paths (history fallback), with their query", async () => {
    for (const url of [
      '/app/login',
      '/app/accounts/12/conversations/7',
      '/app/login?email=a%40b.test&sso_auth_token=x',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(PAGE);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers 404 for a file that is not there, and leaves other paths alone', async () => {
    for (const url of ['/app/assets/gone-123.js', '/app/logo.png', '/app/assets/']) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }
    expect((await app.inject({ url: '/api/thing' })).json()).toEqual({ ok: true });
    expect((await app.inject({ url: '/application' })).statusCode).toBe(404);
  });

  it('revalidates its other files (not hashed)', async () => {
    const res = await app.inject({ url: '/app/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});

describe('a web app that is not built', () => {
  it('answers 503 with a page saying how to build it', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-web-empty-'));
    const bare = Fastify();
    await registerWebAssets(bare, { root: empty, prefix: '/app' });
    for (const url of ['/app', '/app/login']) {
      const res = await bare.inject({ url });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('npm run build');
    }
    // In the browser's language, from the catalogue.
    const pt = await bare.inject({ url: '/app', headers: { 'accept-language': 'pt-BR' } });
    expect(pt.body).toContain('<title>O aplicativo web não foi compilado</title>');
    expect(pt.body).toContain('Compile-o com <code>npm run build</code>');
    await bare.close();
    fs.rmSync(empty, { recursive: true, force: true });
  });
});

describe('an app other sites embed, and the script they load', () => {
  let embed: FastifyInstance;
  let sdkDir: string;
  const LOADER = `(function(){${'window.x=1;'.repeat(300)}})();`;

  beforeAll(async () => {
    sdkDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-web-sdk-'));
    fs.writeFileSync(path.join(sdkDir, 'sdk.js'), LOADER);
    fs.writeFileSync(path.join(sdkDir, 'sdk.js.gz'), zlib.gzipSync(LOADER));
    fs.writeFileSync(path.join(sdkDir, 'sdk.js.br'), zlib.brotliCompressSync(LOADER));
    embed = Fastify();
    await registerWebAssets(embed, { root: dir, prefix: '/app' });
    await registerWebAssets(embed, { root: dir, prefix: '/widget', framable: true });
    registerWebScript(embed, { file: path.join(sdkDir, 'sdk.js'), url: '/packs/js/sdk.js' });
    registerWebScript(embed, { file: path.join(sdkDir, 'missing.js'), url: '/packs/js/missing.js' });
    await embed.ready();
  });
  afterAll(async () => {
    await embed.close();
    fs.rmSync(sdkDir, { recursive: true, force: true });
  });

  it('lets any page frame the framable app, while the other app still refuses framing', async () => {
    for (const url of ['/widget', '/widget?website_token=abc', '/widget/index.html']) {
      const res = await embed.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy'], url).toBe(FRAMABLE_APP_CSP);
      expect(res.headers['x-frame-options'], url).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
    }
    expect(FRAMABLE_APP_CSP).toContain('frame-ancestors *');
    expect(FRAMABLE_APP_CSP).toContain("script-src 'self'");
    expect(FRAMABLE_APP_CSP).not.toContain("'none'; frame");
    const dashboard = await embed.inject({ url: '/app' });
    expect(dashboard.headers['content-security-policy']).toBe(WEB_APP_CSP);
    expect(dashboard.headers['x-frame-options']).toBe('DENY');
  });

  it('serves the script to any origin, briefly cached, compressed as the browser takes it', async () => {
    const plain = await embed.inject({ url: '/packs/js/sdk.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^text\/javascript/);
    expect(plain.headers['cache-control']).toBe('public, max-age=600');
    expect(plain.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(LOADER);
    const br = await embed.inject({ url: '/packs/js/sdk.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(LOADER);
    const gz = await embed.inject({ url: '/packs/js/sdk.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(LOADER);
    const unbuilt = await embed.inject({ url: '/packs/js/missing.js' });
    expect(unbuilt.statusCode).toBe(503);
    expect(unbuilt.body).toContain('npm run build');
  });
});
