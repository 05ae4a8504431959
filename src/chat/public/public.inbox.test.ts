import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newInbox, publicInboxPath, type TestAccount } from '../../../test/helpers/factories.js';
import { call, client } from '../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';

let t: ChatTestApp;
let account: TestAccount;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
});
afterAll(async () => {
  await t.close();
});

describe('GET /public/api/v1/inboxes/:inbox_identifier', () => {
  it("answers Chatwoot's public inbox, without credentials and without secrets", async () => {
    const inbox = await newInbox(t, account, { type: 'api' }, 'Support');
    await client(t.app, account.admin.token).patch(`${account.path}/inboxes/${inbox.id}`, {
      greeting_enabled: true,
      greeting_message: 'Hello!',
      timezone: 'America/Sao_Paulo',
      hmac_mandatory: true,
    });
    const res = await call(t.app, { url: publicInboxPath(inbox.inbox_identifier!) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      identifier: inbox.inbox_identifier,
      name: 'Support',
      timezone: 'America/Sao_Paulo',
      // Chatwoot's seven days; never set: Monday to Friday 09:00-17:00.
      working_hours: [0, 1, 2, 3, 4, 5, 6].map((day) => {
        const closed = day === 0 || day === 6;
        return {
          day_of_week: day,
          closed_all_day: closed,
          open_all_day: false,
          open_hour: closed ? null : 9,
          open_minutes: closed ? null : 0,
          close_hour: closed ? null : 17,
          close_minutes: closed ? null : 0,
        };
      }),
      working_hours_enabled: false,
      csat_survey_enabled: false,
      greeting_enabled: true,
      greeting_message: 'Hello!',
      out_of_office_message: null,
      identity_validation_enabled: true,
    });
    const widget = await newInbox(t, account, { type: 'web_widget', website_url: 'https://acme.test' }, 'Site');
    expect((await call(t.app, { url: publicInboxPath(widget.inbox_identifier!) })).body.name).toBe('Site');
  });

  it('is a 404 for unknown identifiers and for inboxes the public interface does not serve', async () => {
    const email = await newInbox(t, account, { type: 'email', email: 'help@acme.test' });
    const identifier = (
      await t.db.selectFrom('inboxes').select('identifier').where('id', '=', email.id).executeTakeFirstOrThrow()
    ).identifier;
    for (const id of ['nope', identifier]) {
      const res = await call(t.app, { url: publicInboxPath(id) });
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
    // An identifier that cannot be one is a 422, as on the other public routes.
    expect((await call(t.app, { url: publicInboxPath('x'.repeat(300)) })).status).toBe(422);
  });
});
