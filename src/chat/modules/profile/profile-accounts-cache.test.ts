import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  newAccount,
  newConversation,
  newUser,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { withOtherProcess } from '../../../../test/helpers/other-process.js';

/**
 * The profile's account list is cached per instance (profile.cache.ts). Every change of what it
 * shows — a membership and its role, availability and auto_offline, an account's name, locale and
 * status — made through this instance, another one or straight in the database, shows at the next
 * request; a rolled-back change does not; changes of what it does not show leave the cache alone.
 */
let t: ChatTestApp;
let account: TestAccount;
beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t, 'Cached Co');
});
afterAll(async () => {
  await t.close();
});

type Listed = { id: number; name: string; locale: string; status: string; role: string; availability: string };

/** An agent of the account whose account list is cached by one profile request. */
async function cachedAgent(app = t.app) {
  const user = await newUser(t, 'Cached agent');
  await addMember(t, account.id, user.id, 'agent');
  const accounts = async (): Promise<Listed[]> => {
    const res = await client(app, user.token).get('/api/v1/profile');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.accounts;
  };
  expect(await accounts()).toMatchObject([{ id: account.id, role: 'agent', availability: 'offline' }]);
  return { user, accounts };
}

async function membershipEpoch(): Promise<number> {
  const { rows } = await sql<{ value: number }>`select value from membership_epoch where id = 1`.execute(t.db);
  return Number(rows[0].value);
}

describe("the profile's account list follows every change at the next request", () => {
  it('availability, auto_offline and role through the API', async () => {
    const { user, accounts } = await cachedAgent();
    const admin = client(t.app, account.admin.token);
    const agentPath = `${account.path}/agents/${user.id}`;
    expect((await admin.patch(agentPath, { availability: 'busy', auto_offline: false })).status).toBe(200);
    expect(await accounts()).toMatchObject([{ availability: 'busy', auto_offline: false }]);
    expect((await admin.patch(agentPath, { role: 'administrator' })).status).toBe(200);
    expect(await accounts()).toMatchObject([{ role: 'administrator', availability: 'busy' }]);
    // Not an agent of another account.
    const other = await newAccount(t, 'Elsewhere');
    const foreign = await client(t.app, other.admin.token).patch(`${other.path}/agents/${user.id}`, {
      availability: 'online',
    });
    expect(foreign.status).toBe(404);
    expect(await accounts()).toMatchObject([{ availability: 'busy' }]);
  });

  it("an account's name, locale and status, a new and a removed membership, a deleted account", async () => {
    const { user, accounts } = await cachedAgent();
    const platform = client(t.app, t.platformToken);
    const second = await newAccount(t, 'Second');
    await addMember(t, second.id, user.id, 'administrator');
    expect((await accounts()).map((a) => [a.id, a.role])).toEqual([
      [account.id, 'agent'],
      [second.id, 'administrator'],
    ]);

    expect(
      (await platform.patch(`/platform/api/v1/accounts/${second.id}`, { name: 'Renamed', locale: 'pt' })).status,
    ).toBe(200);
    expect((await accounts())[1]).toMatchObject({ name: 'Renamed', locale: 'pt' });
    expect((await platform.patch(`/platform/api/v1/accounts/${second.id}`, { status: 'suspended' })).status).toBe(200);
    expect((await accounts())[1]).toMatchObject({ status: 'suspended' });

    const removal = await platform.delete(`/platform/api/v1/accounts/${second.id}/account_users`, { user_id: user.id });
    expect(removal.status).toBeLessThan(300);
    expect((await accounts()).map((a) => a.id)).toEqual([account.id]);

    const third = await newAccount(t, 'Third');
    await addMember(t, third.id, user.id, 'agent');
    expect((await accounts()).map((a) => a.id)).toEqual([account.id, third.id]);
    expect((await platform.delete(`/platform/api/v1/accounts/${third.id}`)).status).toBeLessThan(300);
    expect((await accounts()).map((a) => a.id)).toEqual([account.id]);
  });

  it('leaves the cache alone for what the list does not show (a new conversation moves the account row)', async () => {
    await cachedAgent();
    const before = await membershipEpoch();
    await newConversation(t, account);
    expect(await membershipEpoch()).toBe(before);
  });

  it('a change straight in the database; a rolled-back one changes nothing', async () => {
    const { user, accounts } = await cachedAgent();
    const set = (availability: string) =>
      `update account_users set availability = '${availability}' where account_id = ${account.id} and user_id = ${user.id}`;
    const before = await membershipEpoch();
    await withOtherProcess(t.database, async (other) => {
      await other.exec('begin');
      await other.exec(set('online'));
      expect(await accounts()).toMatchObject([{ availability: 'offline' }]);
      await other.exec('rollback');
    });
    expect(await membershipEpoch()).toBe(before);
    expect(await accounts()).toMatchObject([{ availability: 'offline' }]);

    await withOtherProcess(t.database, (other) => other.exec(set('online')));
    expect(await accounts()).toMatchObject([{ availability: 'online' }]);
    await withOtherProcess(t.database, (other) =>
      other.exec(`update accounts set name = 'Renamed in SQL' where id = ${account.id}`),
    );
    expect(await accounts()).toMatchObject([{ name: 'Renamed in SQL', availability: 'online' }]);
  });

  it('a change through one instance shows on another', async () => {
    const b = await buildChatTestApp({}, { sameDatabaseAs: t });
    try {
      const { user, accounts: onB } = await cachedAgent(b.app);
      const onA = client(t.app, account.admin.token);
      expect((await onA.patch(`${account.path}/agents/${user.id}`, { availability: 'busy' })).status).toBe(200);
      expect(await onB()).toMatchObject([{ availability: 'busy' }]);
    } finally {
      await b.close();
    }
  });
});
