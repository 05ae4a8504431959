import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  financeClient,
  financeEvents,
  financePatch,
  newFinanceAccount,
  newFinanceBill,
  newFinanceContract,
  newFinanceInvoice,
  newFinanceTransaction,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';
import { TestReceiver, type Received } from '../../../../test/helpers/receiver.js';
import { verifyStandardSignature } from '../../../core/webhooks/signer.js';

/**
 * Finance webhook deliveries to a real HTTP receiver on 127.0.0.1, with the outbox dispatcher and
 * the delivery worker running as in production (fast polling; retries after 0.2/0.4/0.6 s).
 */
let t: FinanceTestApp;
const receivers: TestReceiver[] = [];
beforeAll(async () => {
  t = await buildFinanceTestApp(
    { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '0.2,0.4,0.6' },
    { background: { pollIntervalMs: 20 } },
  );
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

async function receiver() {
  const r = await new TestReceiver().start();
  receivers.push(r);
  return r;
}

async function register(account: FinanceTestAccount, url: string, events: string[]) {
  const res = await financeClient(t.app, account.admin.accessToken).post('/api/v1/webhooks', { url, events });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string };
}

async function deliveries(account: FinanceTestAccount, webhookId: string) {
  const res = await financeClient(t.app, account.admin.accessToken).get(`/api/v1/webhooks/${webhookId}/deliveries`);
  expect(res.status).toBe(200);
  return res.body.data.items as {
    id: string;
    event: string;
    eventId: string;
    status: string;
    attempts: number;
    lastStatusCode: number | null;
  }[];
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const headersOf = (x: Received) => x.headers as Record<string, string>;
const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('finance webhook delivery', () => {
  it('posts invoice.created, invoice.paid and contract.cancelled, signed, with the envelope payload', async () => {
    const acme = await newFinanceAccount(t);
    const other = await newFinanceAccount(t);
    const r = await receiver();
    const otherReceiver = await receiver();
    const hook = await register(acme, r.url, ['invoice.created', 'invoice.paid', 'contract.cancelled']);
    await register(other, otherReceiver.url, [
      'invoice.created',
      'invoice.paid',
      'contract.cancelled',
      'contract.created',
    ]);
    const token = acme.admin.accessToken;

    const invoice = await newFinanceInvoice(t, token, { status: 'issued', amount: 1234.56, dueDate: '2099-01-31' });
    const paid = await financeClient(t.app, token).post(`/api/invoices/${invoice.id}/pay`);
    expect(paid.status).toBe(200);
    const contract = await newFinanceContract(t, token); // contract.created: not subscribed
    const cancelled = await financeClient(t.app, token).post(`/api/contracts/${contract.id}/cancel`);
    expect(cancelled.status).toBe(200);
    await newFinanceTransaction(t, token); // not subscribed
    const bill = await newFinanceBill(t, token, { dueDate: '2099-01-31' });
    await financeClient(t.app, token).post(`/api/bills/${bill.id}/pay`); // bill.paid is internal: never sent

    await r.waitFor(3);
    // Everything recorded so far has been dispatched: nothing else can arrive.
    await until(
      () => t.db.selectFrom('outbox_events').select('id').where('dispatched_at', 'is', null).execute(),
      (rows) => rows.length === 0,
    );
    await until(
      () => deliveries(acme, hook.id),
      (items) => items.every((d) => d.status === 'succeeded'),
    );
    expect(r.received).toHaveLength(3);
    expect(otherReceiver.received).toHaveLength(0);

    const byEvent = Object.fromEntries(r.received.map((x) => [x.json.event, x]));
    expect(Object.keys(byEvent).sort()).toEqual(['contract.cancelled', 'invoice.created', 'invoice.paid']);
    const outboxId = async (name: string, id: string) =>
      String((await financeEvents(t.db, name, acme.accountId)).find((e) => e.payload.data.id === id)!.id);
    expect(byEvent['invoice.created'].json).toEqual({
      id: await outboxId('invoice.created', invoice.id),
      event: 'invoice.created',
      created_at: iso,
      account_id: acme.accountId,
      data: invoice,
    });
    expect(byEvent['invoice.paid'].json).toEqual({
      id: await outboxId('invoice.paid', invoice.id),
      event: 'invoice.paid',
      created_at: iso,
      account_id: acme.accountId,
      data: paid.body.data,
    });
    expect(byEvent['invoice.paid'].json.data).toMatchObject({ amount: 1234.56, status: 'paid', paidAt: iso });
    expect(byEvent['contract.cancelled'].json).toEqual({
      id: await outboxId('contract.cancelled', contract.id),
      event: 'contract.cancelled',
      created_at: iso,
      account_id: acme.accountId,
      data: cancelled.body.data,
    });

    const log = await deliveries(acme, hook.id);
    expect(log).toHaveLength(3);
    for (const x of r.received) {
      const h = headersOf(x);
      expect(h['content-type']).toMatch(/^application\/json/);
      expect(verifyStandardSignature(hook.secret, h, x.body)).toBe(true);
      expect(verifyStandardSignature('not-the-secret', h, x.body)).toBe(false);
      const entry = log.find((d) => d.id === h['webhook-id']);
      expect(entry).toMatchObject({
        event: x.json.event,
        eventId: x.json.id,
        status: 'succeeded',
        attempts: 1,
        lastStatusCode: 200,
      });
    }
    expect(
      await t.db.selectFrom('webhook_deliveries').select('id').where('event_name', '=', 'bill.paid').execute(),
    ).toEqual([]);
  });

  it('sends transaction.updated with changed_attributes, and retries a failed delivery with the same webhook-id', async () => {
    const acme = await newFinanceAccount(t);
    const r = await receiver();
    r.script = [500];
    const hook = await register(acme, r.url, ['transaction.updated']);
    const tx = await newFinanceTransaction(t, acme.admin.accessToken, { status: 'pending' });
    const updated = await financePatch(t.app, acme.admin.accessToken, `/api/transactions/${tx.id}`, {
      status: 'completed',
    });
    expect(updated.status).toBe(200);

    await r.waitFor(2);
    const [first, second] = r.received;
    expect(headersOf(first)['webhook-id']).toBe(headersOf(second)['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(verifyStandardSignature(hook.secret, headersOf(second), second.body)).toBe(true);
    expect(second.json).toEqual({
      id: expect.stringMatching(/^\d+$/),
      event: 'transaction.updated',
      created_at: iso,
      account_id: acme.accountId,
      data: updated.body.data,
      changed_attributes: [{ status: { previous_value: 'pending', current_value: 'completed' } }],
    });
    const log = await until(
      () => deliveries(acme, hook.id),
      (items) => items[0]?.status === 'succeeded',
    );
    expect(log).toEqual([
      expect.objectContaining({ event: 'transaction.updated', status: 'succeeded', attempts: 2, lastStatusCode: 200 }),
    ]);
  });
});
