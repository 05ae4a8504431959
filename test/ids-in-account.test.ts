import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idsInAccount } from '../src/core/db/where.js';
import { newAccount, newContact } from './helpers/factories.js';
import { buildChatTestApp, type ChatTestApp } from './helpers/test-app.js';

// The lookup every page presentation makes (core/db/where.ts idsInAccount), on the database the
// suite runs on: only the account's rows of the listed ids, whatever else the list names.
let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('rows of one account by ids', () => {
  it("finds the account's rows, never another account's, and nothing for an empty list", async () => {
    const acme = await newAccount(t, 'Acme');
    const other = await newAccount(t, 'Other');
    const a = (await newContact(t, acme, { name: 'A' })).contact;
    const b = (await newContact(t, acme, { name: 'B' })).contact;
    const foreign = (await newContact(t, other, { name: 'F' })).contact;
    const names = async (accountId: number, ids: number[]) =>
      (
        await t.db.selectFrom('contacts').select('name').where(idsInAccount(accountId, ids)).orderBy('name').execute()
      ).map((r) => r.name);
    expect(await names(acme.id, [a.id, b.id, b.id, foreign.id])).toEqual(['A', 'B']);
    expect(await names(other.id, [a.id, foreign.id])).toEqual(['F']);
    expect(await names(acme.id, [])).toEqual([]);
    // Combined with other conditions, it stays one condition.
    const one = await t.db
      .selectFrom('contacts')
      .select('name')
      .where((eb) => eb.or([eb('name', '=', 'A'), eb('name', '=', 'F')]))
      .where(idsInAccount(acme.id, [a.id, b.id, foreign.id]))
      .execute();
    expect(one.map((r) => r.name)).toEqual(['A']);
  });
});
