import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestSmtpServer } from '../../../test/helpers/smtp.js';
import { openTestDatabase, type TestDatabase } from '../../../test/helpers/test-app.js';
import { createSmtpTransport } from './mail.transport.js';
import { instanceTransport, MailWorker, NO_SMTP_ERROR, sendQueuedNow } from './mail.worker.js';
import { markEmailFailed, markEmailSent } from './outgoing-emails.js';
import { addEmailReplyToAndAttachments, createOutgoingEmailsTable } from './outgoing-emails.migration.js';
import { enqueueEmail, type OutgoingEmailsDatabase } from './outgoing-emails.js';

/** The mail queue and worker against a real SMTP server on 127.0.0.1 (both dialects). */
let database: TestDatabase<OutgoingEmailsDatabase>;
let smtp: TestSmtpServer;
const logger = pino({ level: 'silent' });
const workers: MailWorker<OutgoingEmailsDatabase>[] = [];

beforeAll(async () => {
  database = await openTestDatabase<OutgoingEmailsDatabase>('mail');
  await createOutgoingEmailsTable(database.db, database.dialect);
  await addEmailReplyToAndAttachments(database.db);
  smtp = await new TestSmtpServer().start();
});
afterAll(async () => {
  await smtp.stop();
  await database.close();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await database.db.deleteFrom('outgoing_emails').execute();
  smtp.received.length = 0;
  smtp.rejectNext(0);
});

function worker(options: { transport?: boolean } = {}) {
  const w = new MailWorker<OutgoingEmailsDatabase>({
    db: database.db,
    dialect: database.dialect,
    logger,
    transportFor: instanceTransport(
      options.transport === false ? null : smtp.url,
      'Ponte <mailer@ponte.test>',
      createSmtpTransport,
    ),
    retryDelaysMs: [30, 60, 90],
  });
  workers.push(w);
  return w;
}

const row = (id: string) =>
  database.db.selectFrom('outgoing_emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function queue(subject = 'Hello') {
  return database.db
    .transaction()
    .execute((trx) =>
      enqueueEmail(trx, { to: ['a@example.test'], subject, text: 'Body text', accountId: 7, source: 'test' }),
    );
}

describe('mail worker', () => {
  it('sends a queued e-mail and records it as sent', async () => {
    const id = await queue();
    expect((await row(id)).status).toBe('pending');
    expect(await worker().runOnce()).toBe(1);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ to: ['a@example.test'], from: 'mailer@ponte.test', subject: 'Hello' });
    expect(smtp.received[0].text.trim()).toBe('Body text');
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null, locked_until: null });
    expect(await worker().runOnce()).toBe(0);
  });

  it('an e-mail queued in a transaction that rolls back never exists', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await enqueueEmail(trx, { to: ['a@example.test'], subject: 'Never', text: 'x' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await worker().runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it('retries a temporary failure after a delay, keeping the Message-ID', async () => {
    const id = await queue();
    smtp.rejectNext(1);
    const w = worker();
    await w.runOnce();
    const failed = await row(id);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed.last_error).toMatch(/451/);
    expect(failed.next_attempt_at).toBeGreaterThan(Date.now() - 5);
    await sleep(40);
    await w.runOnce();
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].headers['message-id']).toBe(`<${id}@ponte.test>`);
  });

  it('gives up after three retries and records the last error', async () => {
    const id = await queue();
    smtp.rejectNext(10);
    const w = worker();
    for (const wait of [0, 40, 70, 100]) {
      await sleep(wait);
      expect(await w.runOnce()).toBe(1);
    }
    const final = await row(id);
    expect(final).toMatchObject({ status: 'failed', attempts: 4 });
    expect(final.last_error).toMatch(/451/);
    await sleep(120);
    expect(await w.runOnce()).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it('takes over an e-mail whose worker died mid-send once its lease expired', async () => {
    const id = await queue();
    await database.db
      .updateTable('outgoing_emails')
      .set({ status: 'sending', attempts: 1, locked_until: Date.now() - 1 })
      .where('id', '=', id)
      .execute();
    expect(await worker().runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
    // A live lease is left alone.
    const held = await queue('Held');
    await database.db
      .updateTable('outgoing_emails')
      .set({ status: 'sending', attempts: 1, locked_until: Date.now() + 60_000 })
      .where('id', '=', held)
      .execute();
    expect(await worker().runOnce()).toBe(0);
  });

  it('without SMTP_URL the e-mail fails with that reason', async () => {
    const id = await queue();
    await worker({ transport: false }).runOnce();
    expect(await row(id)).toMatchObject({ status: 'failed', last_error: NO_SMTP_ERROR });
  });

  it('the started worker sends what is queued without being called', async () => {
    const w = new MailWorker<OutgoingEmailsDatabase>({
      db: database.db,
      dialect: database.dialect,
      logger,
      transportFor: instanceTransport(smtp.url, 'mailer@ponte.test', createSmtpTransport),
      pollIntervalMs: 20,
    });
    workers.push(w);
    w.start();
    await queue('Background');
    await smtp.waitFor(1);
    expect(smtp.received.map((e) => e.subject)).toEqual(['Background']);
  });
});

describe('sendQueuedNow', () => {
  it("reports the outcome of the worker's attempt when the worker claimed the e-mail first", async () => {
    const now = () => instanceTransport(smtp.url, 'Ponte <mailer@ponte.test>', createSmtpTransport);
    const sent = await queue('Claimed, then sent');
    await database.db
      .updateTable('outgoing_emails')
      .set({ status: 'sending', attempts: 1, locked_until: Date.now() + 60_000 })
      .where('id', '=', sent)
      .execute();
    const waiting = sendQueuedNow(database.db, sent, now(), logger);
    // The worker finishes its attempt a moment later.
    await sleep(100);
    await markEmailSent(database.db, sent, Date.now());
    expect(await waiting).toBeNull();

    const failed = await queue('Claimed, then refused');
    await database.db
      .updateTable('outgoing_emails')
      .set({ status: 'sending', attempts: 1, locked_until: Date.now() + 60_000 })
      .where('id', '=', failed)
      .execute();
    const refused = sendQueuedNow(database.db, failed, now(), logger);
    await sleep(100);
    await markEmailFailed(database.db, failed, '550 mailbox unavailable', null);
    expect(await refused).toBe('550 mailbox unavailable');
    // Nothing was sent twice: this caller never talked to the server.
    expect(smtp.received).toEqual([]);
  });
});
