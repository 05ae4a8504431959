import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  addFinanceMember,
  countFinanceRows,
  financeClient,
  joinFinanceAccount,
  newFinanceAccount,
  newFinanceNotifications,
  type FinanceTestUser,
} from '../../../../test/helpers/finance-factories.js';

let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp();
});
afterAll(async () => {
  await t.close();
});

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** An account with its admin and an agent, and a client for each. */
async function team() {
  const account = await newFinanceAccount(t);
  const agent = await addFinanceMember(t, account, 'agent');
  return {
    account,
    admin: account.admin,
    agent,
    a: financeClient(t.app, account.admin.accessToken),
    g: financeClient(t.app, agent.accessToken),
  };
}

const countOf = async (user: FinanceTestUser) =>
  Number(
    (
      await t.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', Number(user.id))
        .where('account_id', '=', Number(user.accountId))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('GET /api/notifications', () => {
  it('lists only my notifications in the current account, newest first, with the full shape', async () => {
    const { admin, agent, a } = await team();
    const other = await newFinanceAccount(t);
    const [oldest, middle, newest] = await newFinanceNotifications(t, admin, [
      { type: 'bill_due_soon', title: 'Bill due soon', message: 'Power Co due', data: { billId: '7' } },
      { type: 'system', title: 'Hello', message: 'Welcome', read: true },
      { type: 'payment_confirmed', title: 'Paid', message: 'Bill paid' },
    ]);
    await newFinanceNotifications(t, agent, [{ title: 'agent only' }]);
    await newFinanceNotifications(t, other.admin, [{ title: 'other account' }]);

    const res = await a.get('/api/notifications');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        notifications: [
          {
            id: newest,
            type: 'payment_confirmed',
            title: 'Paid',
            message: 'Bill paid',
            read: false,
            readAt: null,
            data: null,
            createdAt: ISO,
          },
          {
            id: middle,
            type: 'system',
            title: 'Hello',
            message: 'Welcome',
            read: true,
            readAt: ISO,
            data: null,
            createdAt: ISO,
          },
          {
            id: oldest,
            type: 'bill_due_soon',
            title: 'Bill due soon',
            message: 'Power Co due',
            read: false,
            readAt: null,
            data: { billId: '7' },
            createdAt: ISO,
          },
        ],
        total: 3,
        page: 1,
        limit: 20,
      },
    });
  });

  it('paginates (page default 1, limit default 20) and counts the total', async () => {
    const { admin, a } = await team();
    const ids = await newFinanceNotifications(
      t,
      admin,
      Array.from({ length: 25 }, () => ({})),
    );
    const newestFirst = [...ids].reverse();

    const first = await a.get('/api/notifications');
    expect(first.body.data).toMatchObject({ total: 25, page: 1, limit: 20 });
    expect(first.body.data.notifications.map((n: { id: string }) => n.id)).toEqual(newestFirst.slice(0, 20));

    const second = await a.get('/api/notifications?page=2');
    expect(second.body.data).toMatchObject({ total: 25, page: 2, limit: 20 });
    expect(second.body.data.notifications.map((n: { id: string }) => n.id)).toEqual(newestFirst.slice(20));

    const small = await a.get('/api/notifications?page=3&limit=10');
    expect(small.body.data.notifications.map((n: { id: string }) => n.id)).toEqual(newestFirst.slice(20, 25));
    expect((await a.get('/api/notifications?page=9')).body.data).toEqual({
      notifications: [],
      total: 25,
      page: 9,
      limit: 20,
    });
  });

  it('filters by unreadOnly and by type (total follows the filters)', async () => {
    const { admin, a } = await team();
    await newFinanceNotifications(t, admin, [
      { type: 'bill_overdue', read: true },
      { type: 'bill_overdue' },
      { type: 'accountant_sent' },
      { type: 'system', read: true },
    ]);
    const unread = await a.get('/api/notifications?unreadOnly=true');
    expect(unread.body.data.total).toBe(2);
    expect(unread.body.data.notifications.every((n: { read: boolean }) => !n.read)).toBe(true);

    const overdue = await a.get('/api/notifications?type=bill_overdue');
    expect(overdue.body.data.total).toBe(2);
    expect(overdue.body.data.notifications.map((n: { type: string }) => n.type)).toEqual([
      'bill_overdue',
      'bill_overdue',
    ]);

    const both = await a.get('/api/notifications?type=bill_overdue&unreadOnly=true');
    expect(both.body.data.total).toBe(1);
    expect((await a.get('/api/notifications?unreadOnly=false')).body.data.total).toBe(4);
  });

  it('refuses bad query values with 422', async () => {
    const { a } = await team();
    for (const query of ['type=birthday', 'page=0', 'limit=101', 'limit=abc', 'unreadOnly=maybe']) {
      const res = await a.get(`/api/notifications?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body).toMatchObject({ success: false, error: { code: 'validation_failed' } });
    }
  });

  it('needs a token', async () => {
    const res = await financeClient(t.app).get('/api/notifications');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: { code: 'unauthorized' } });
    expect((await financeClient(t.app).get('/api/notifications/unread-count')).status).toBe(401);
  });
});

describe('reading and deleting', () => {
  it('counts unread, marks one read (404 for anyone else’s), then all', async () => {
    const { admin, agent, a, g } = await team();
    const other = await newFinanceAccount(t);
    const [first] = await newFinanceNotifications(t, admin, [{}, {}, { read: true }]);
    const [agentsOwn] = await newFinanceNotifications(t, agent, [{}]);
    const [othersOwn] = await newFinanceNotifications(t, other.admin, [{}]);

    expect((await a.get('/api/notifications/unread-count')).body).toEqual({ success: true, data: { unreadCount: 2 } });

    const read = await a.post(`/api/notifications/${first}/read`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      success: true,
      message: 'Notification marked as read',
      data: expect.objectContaining({ id: first, read: true, readAt: ISO }),
    });
    expect((await a.post(`/api/notifications/${first}/read`)).status).toBe(200); // again: still fine
    expect((await a.get('/api/notifications/unread-count')).body.data.unreadCount).toBe(1);

    for (const id of [agentsOwn, othersOwn, '999999']) {
      const res = await a.post(`/api/notifications/${id}/read`);
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    expect((await a.post('/api/notifications/abc/read')).status).toBe(422);
    expect((await g.get('/api/notifications/unread-count')).body.data.unreadCount).toBe(1);

    const all = await a.post('/api/notifications/read-all');
    expect(all.body).toEqual({ success: true, message: 'All notifications marked as read', data: { updatedCount: 1 } });
    expect((await a.get('/api/notifications/unread-count')).body.data.unreadCount).toBe(0);
    expect((await a.get(`/api/notifications?unreadOnly=true`)).body.data.total).toBe(0);
    // Nobody else's changed.
    expect((await g.get('/api/notifications/unread-count')).body.data.unreadCount).toBe(1);
    const othersRow = await t.db
      .selectFrom('notifications')
      .select('read')
      .where('id', '=', Number(othersOwn))
      .executeTakeFirstOrThrow();
    expect(othersRow.read).toBe(0);
  });

  it('deletes one of mine; anyone else’s is 404 and stays', async () => {
    const { admin, agent, a } = await team();
    const other = await newFinanceAccount(t);
    const [mine] = await newFinanceNotifications(t, admin, [{}, {}]);
    const [agentsOwn] = await newFinanceNotifications(t, agent, [{}]);
    const [othersOwn] = await newFinanceNotifications(t, other.admin, [{}]);

    const res = await a.delete(`/api/notifications/${mine}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: null, message: 'Notification deleted' });
    expect(await countOf(admin)).toBe(1);
    expect((await a.delete(`/api/notifications/${mine}`)).status).toBe(404);

    const before = await countFinanceRows(t.db, 'notifications');
    for (const id of [agentsOwn, othersOwn]) expect((await a.delete(`/api/notifications/${id}`)).status).toBe(404);
    expect(await countFinanceRows(t.db, 'notifications')).toBe(before);
  });

  it('DELETE /read removes my read ones only and answers the deletedCount (not taken for an id)', async () => {
    const { admin, agent, a } = await team();
    await newFinanceNotifications(t, admin, [{ read: true }, { read: true }, {}, { read: true }]);
    await newFinanceNotifications(t, agent, [{ read: true }]);
    const res = await a.delete('/api/notifications/read');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: '3 read notification(s) deleted', data: { deletedCount: 3 } });
    const left = await a.get('/api/notifications');
    expect(left.body.data.total).toBe(1);
    expect(left.body.data.notifications[0].read).toBe(false);
    expect(await countOf(agent)).toBe(1);
    expect((await a.delete('/api/notifications/read')).body.data).toEqual({ deletedCount: 0 });
  });
});

describe('preferences', () => {
  const defaults = {
    billDueSoon: true,
    billOverdue: true,
    paymentConfirmed: true,
    accountantSent: true,
    daysBeforeDue: 3,
  };

  it('are the defaults until saved; PUT changes only the fields sent, per user and account', async () => {
    const { account, agent, a, g } = await team();
    expect((await a.get('/api/notifications/preferences')).body).toEqual({ success: true, data: defaults });

    const saved = await a.put('/api/notifications/preferences', { billOverdue: false, daysBeforeDue: 7 });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      success: true,
      message: 'Preferences saved',
      data: { ...defaults, billOverdue: false, daysBeforeDue: 7 },
    });
    const again = await a.put('/api/notifications/preferences', { accountantSent: false });
    expect(again.body.data).toEqual({ ...defaults, billOverdue: false, daysBeforeDue: 7, accountantSent: false });
    expect((await a.get('/api/notifications/preferences')).body.data).toEqual(again.body.data);

    // Another user of the account keeps the defaults.
    expect((await g.get('/api/notifications/preferences')).body.data).toEqual(defaults);
    expect(agent.accountId).toBe(account.accountId);
  });

  it('are per account: the same user in another account has their own', async () => {
    const first = await newFinanceAccount(t);
    const second = await newFinanceAccount(t);
    // The first admin joins the second account (switch-account gives a token for it).
    await joinFinanceAccount(t, second, first.admin, 'agent');
    const switched = await financeClient(t.app, first.admin.accessToken).post('/api/auth/switch-account', {
      accountId: second.accountId,
    });
    expect(switched.status).toBe(200);
    const inSecond = financeClient(t.app, switched.body.data.accessToken);

    await financeClient(t.app, first.admin.accessToken).put('/api/notifications/preferences', { billDueSoon: false });
    expect((await inSecond.get('/api/notifications/preferences')).body.data).toEqual(defaults);
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    const { a } = await team();
    await a.put('/api/notifications/preferences', { daysBeforeDue: 5 });
    const rows = await countFinanceRows(t.db, 'notification_preferences');
    for (const body of [
      {},
      { daysBeforeDue: -1 },
      { daysBeforeDue: 61 },
      { daysBeforeDue: 2.5 },
      { billDueSoon: 'yes' },
      { billDueSoon: true, colour: 'blue' },
    ]) {
      const res = await a.put('/api/notifications/preferences', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ success: false, error: { code: 'validation_failed' } });
    }
    expect(await countFinanceRows(t.db, 'notification_preferences')).toBe(rows);
    expect((await a.get('/api/notifications/preferences')).body.data).toEqual({ ...defaults, daysBeforeDue: 5 });
    expect((await financeClient(t.app).put('/api/notifications/preferences', { billDueSoon: false })).status).toBe(401);
  });
});
