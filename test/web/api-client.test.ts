import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../web/shared/api/client.js';
import type { paths } from '../../web/shared/api/chat.js';
import { apiErrorOf } from '../../web/shared/api/errors.js';
import { sessionFromHeaders, sessionHeaders, type DeviceSession } from '../../web/shared/auth/device-session.js';
import { newAccount, type TestAccount } from '../helpers/factories.js';
import { buildChatTestApp, type ChatTestApp } from '../helpers/test-app.js';

// The browser apps' typed client against the real conversation service: it sends the session's
// headers and the UI's language, reads the session a sign-in opens, and reports a 401 to a
// request that carried credentials (and only then) as the end of the session.
let t: ChatTestApp;
let base: string;
let account: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  t = await buildChatTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  account = await newAccount(t, 'Acme');
  other = await newAccount(t, 'Other');
});
afterAll(async () => t?.close());

function clientFor(state: { session: DeviceSession | null; language: string; ended: number }) {
  return createApiClient<paths>({
    baseUrl: base,
    credentials: () => (state.session ? sessionHeaders(state.session) : {}),
    language: () => state.language,
    onUnauthorized: () => {
      state.ended += 1;
    },
  });
}

describe('the typed API client', () => {
  it('signs in, then calls with the session headers; a refused sign-in is an answer, not an ended session', async () => {
    const state = { session: null as DeviceSession | null, language: 'en', ended: 0 };
    const api = clientFor(state);
    const refused = await api.POST('/auth/sign_in', { body: { email: account.admin.email, password: 'wrong one' } });
    expect(refused.response.status).toBe(401);
    expect(apiErrorOf(refused.error, refused.response).code).toBe('unauthorized');
    expect(state.ended).toBe(0);

    const signed = await api.POST('/auth/sign_in', {
      body: { email: account.admin.email, password: 'correct horse battery' },
    });
    expect(signed.response.status).toBe(200);
    state.session = sessionFromHeaders(signed.response.headers);
    expect(state.session?.uid).toBe(account.admin.email);

    const profile = await api.GET('/api/v1/profile');
    expect(profile.data?.email).toBe(account.admin.email);
    const agents = await api.GET('/api/v1/accounts/{accountId}/agents', {
      params: { path: { accountId: account.id } },
    });
    expect(agents.response.status).toBe(200);
    // Another account's id: not found, and the session goes on.
    const foreign = await api.GET('/api/v1/accounts/{accountId}/agents', { params: { path: { accountId: other.id } } });
    expect(foreign.response.status).toBe(404);
    expect(state.ended).toBe(0);
  });

  it("asks for the UI's language, and reports a 401 with credentials as the session's end", async () => {
    const state = { session: null as DeviceSession | null, language: 'pt-BR', ended: 0 };
    const api = clientFor(state);
    const signed = await api.POST('/auth/sign_in', {
      body: { email: account.admin.email, password: 'correct horse battery' },
    });
    state.session = sessionFromHeaders(signed.response.headers);
    expect((await api.DELETE('/auth/sign_out')).response.status).toBe(200);

    const after = await api.GET('/api/v1/profile');
    expect(after.response.status).toBe(401);
    expect(apiErrorOf(after.error, after.response).message).toBe('Token de acesso inválido ou ausente');
    expect(state.ended).toBe(1);
  });
});
