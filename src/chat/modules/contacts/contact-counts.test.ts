import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import { newAccount, newContact, type TestAccount } from '../../../../test/helpers/factories.js';

/**
 * The contact list's `count` comes from a trigger-kept row per account (migration 0017): after
 * creations, deletions, a merge and rows written by SQL directly, it equals a count of the
 * account's contacts, and never includes another account's.
 */
let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
});
afterAll(async () => {
  await t.close();
});

const counted = async (accountId: number) =>
  (await t.db.selectFrom('contacts').select('id').where('account_id', '=', accountId).execute()).length;

async function listedCount(acc: TestAccount) {
  const res = await client(t.app, acc.admin.token).get(`${acc.path}/contacts`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.meta.count as number;
}

describe('contact counts', () => {
  it('equal a count of the contacts after every kind of change', async () => {
    const admin = client(t.app, account.admin.token);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await newContact(t, account, { name: `Person ${i}` }));
    await newContact(t, other, { name: 'Elsewhere' });
    expect(await listedCount(account)).toBe(5);

    expect((await admin.delete(`${account.path}/contacts/${made[0].contact.id}`)).status).toBeLessThan(300);
    const merge = await admin.post(`${account.path}/actions/contact_merge`, {
      base_contact_id: made[1].contact.id,
      mergee_contact_id: made[2].contact.id,
    });
    expect(merge.status, JSON.stringify(merge.body)).toBe(200);
    await sql`delete from contacts where account_id = ${account.id} and id = ${made[3].contact.id}`.execute(t.db);

    expect(await listedCount(account)).toBe(await counted(account.id));
    expect(await listedCount(account)).toBe(2);
    expect(await listedCount(other)).toBe(1);
    // A filtered list counts its matches.
    const search = await admin.get(`${account.path}/contacts/search?q=Person 4`);
    expect(search.body.meta.count).toBe(1);
    // Another account's path: 404.
    expect((await admin.get(`${other.path}/contacts`)).status).toBe(404);
  });
});
