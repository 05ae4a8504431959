import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newContact, newConversation, newInbox, newMessage } from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

/** send_email through the durable mail queue and the mail worker, to a real SMTP server on 127.0.0.1. */
let t: ChatTestApp;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  t = await buildChatTestApp(
    { SMTP_URL: smtp.url, MAIL_FROM: 'Ponte Alerts <alerts@ponte.test>' },
    { background: { pollIntervalMs: 20 } },
  );
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('send_email action', () => {
  it('queues an e-mail in the dispatch transaction; the worker delivers it with the conversation in its text', async () => {
    const acc = await newAccount(t);
    const admin = client(t.app, acc.admin.token);
    const created = await admin.post(`${acc.path}/automation_rules`, {
      name: 'Escalate urgent messages',
      event_name: 'message_created',
      conditions: [{ attribute_key: 'content', filter_operator: 'contains', values: ['urgent'] }],
      actions: [
        { action_name: 'send_email', action_params: ['ops@example.test', 'lead@example.test'] },
        { action_name: 'add_label', action_params: ['escalated'] },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    const inbox = await newInbox(t, acc, { type: 'api' }, 'Website');
    await newContact(t, acc, {
      name: 'Dana Customer',
      email: 'dana@example.test',
      inbox_id: inbox.id,
      source_id: 'dana-1',
    });
    const c = await newConversation(t, acc, { inboxId: inbox.id, contactSourceId: 'dana-1' });
    await newMessage(t, acc, c.id, { content: 'Just saying hello', message_type: 'incoming' });
    expect(smtp.received.length).toBe(0);
    await newMessage(t, acc, c.id, { content: 'This is URGENT: the checkout is down', message_type: 'incoming' });

    const [email] = await smtp.waitFor(1);
    expect(email).toBeDefined();
    expect(email.to.sort()).toEqual(['lead@example.test', 'ops@example.test']);
    expect(email.from).toBe('alerts@ponte.test');
    expect(email.subject).toBe(`Conversation #${c.id}: Escalate urgent messages`);
    expect(email.headers['message-id']).toMatch(/^<eml_[0-9a-f]{32}@ponte\.test>$/);
    expect(email.text).toContain(`Conversation #${c.id}`);
    expect(email.text).toContain('Contact: Dana Customer <dana@example.test>');
    expect(email.text).toContain('Inbox: Website');
    expect(email.text).toContain('Dana Customer: Just saying hello');
    expect(email.text).toContain('Dana Customer: This is URGENT: the checkout is down');
    expect(email.text).toContain(`/app/accounts/${acc.id}/conversations/${c.id}`);

    // The queue row records the delivery.
    const row = await until(
      () => t.db.selectFrom('outgoing_emails').selectAll().where('account_id', '=', acc.id).executeTakeFirstOrThrow(),
      (r) => r.status === 'sent',
    );
    expect(row).toMatchObject({
      status: 'sent',
      attempts: 1,
      last_error: null,
      source: `automation_rule:${created.body.payload.id}`,
    });
    expect(smtp.received.length).toBe(1); // the first message did not match
  });

  it('a rule that fails after send_email queues no e-mail (the queue row rolls back with the rule)', async () => {
    const acc = await newAccount(t);
    const admin = client(t.app, acc.admin.token);
    const team = (await admin.post(`${acc.path}/teams`, { name: 'Doomed' })).body;
    const created = await admin.post(`${acc.path}/automation_rules`, {
      name: 'Mail then fail',
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'status', filter_operator: 'is_present' }],
      actions: [
        { action_name: 'send_email', action_params: ['nobody@example.test'] },
        { action_name: 'assign_team', action_params: [team.id] },
      ],
    });
    expect(created.status).toBe(200);
    expect((await admin.delete(`${acc.path}/teams/${team.id}`)).status).toBe(200);
    const before = smtp.received.length;
    await newConversation(t, acc);
    const log = await until(
      async () =>
        (await admin.get(`${acc.path}/automation_rules/${created.body.payload.id}/runs`)).body.payload as {
          outcome: string;
          error: string | null;
        }[],
      (l) => l.length > 0,
    );
    expect(log[0]).toMatchObject({ outcome: 'failed', error: expect.stringContaining('assign_team') });
    expect(await t.db.selectFrom('outgoing_emails').select('id').where('account_id', '=', acc.id).execute()).toEqual(
      [],
    );
    expect(smtp.received.length).toBe(before);
  });
});
