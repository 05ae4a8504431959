import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../test/helpers/test-app.js';
import { call } from '../../test/helpers/http.js';

let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('finance service shell', () => {
  it('answers /health after checking its database', async () => {
    const res = await call(t.app, { url: '/health' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('serves its OpenAPI document and docs page', async () => {
    const doc = await call(t.app, { url: '/openapi.json' });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.info.title).toMatch(/finance/i);
    const page = await call(t.app, { url: '/docs/' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
  });

  it('answers unknown routes with the finance error envelope', async () => {
    const res = await call(t.app, { url: '/api/nowhere' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: expect.stringContaining('not found'), error: { code: 'not_found' } });
  });
});
