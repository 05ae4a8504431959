import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, testDialect, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import { newAccount, newContact, type TestAccount } from '../../../../test/helpers/factories.js';

/**
 * Contact search through the trigram index (migration 0019): it follows every write (create,
 * update, delete), matches what `like '%term%'` matched (any case, any column, quotes and symbols
 * literally, terms under three characters by scanning), never another account's contacts, and the
 * query plan uses the index.
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

async function found(q: string, acc = account) {
  const res = await client(t.app, acc.admin.token).get(`${acc.path}/contacts/search?q=${encodeURIComponent(q)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.payload as { name: string }[]).map((c) => c.name).sort();
}

describe('contact search index', () => {
  it('follows creates, updates and deletes, and matches substrings in any column and any case', async () => {
    const ana = (await newContact(t, account, { name: 'Ana Beatriz Souza', email: 'ana@exemplo.test' })).contact;
    const bruno = (await newContact(t, account, { name: 'Bruno "O Rei" Lima', phone_number: '+5511912345678' }))
      .contact;
    await newContact(t, account, { name: 'Carla', identifier: 'crm-778899' });
    await newContact(t, other, { name: 'Ana Outra Conta' });

    expect(await found('beatriz')).toEqual(['Ana Beatriz Souza']);
    expect(await found('EXEMPLO.TE')).toEqual(['Ana Beatriz Souza']);
    expect(await found('912345')).toEqual(['Bruno "O Rei" Lima']);
    expect(await found('"O Rei"')).toEqual(['Bruno "O Rei" Lima']);
    expect(await found('m-7788')).toEqual(['Carla']);
    // Two characters: no trigram, the search scans and still finds it.
    expect(await found('li')).toEqual(['Bruno "O Rei" Lima']);
    expect(await found('Ana')).toEqual(['Ana Beatriz Souza']);
    expect(await found('Ana', other)).toEqual(['Ana Outra Conta']);

    const admin = client(t.app, account.admin.token);
    expect((await admin.put(`${account.path}/contacts/${ana.id}`, { name: 'Ana Clara Souza' })).status).toBe(200);
    expect(await found('beatriz')).toEqual([]);
    expect(await found('clara')).toEqual(['Ana Clara Souza']);
    expect((await admin.delete(`${account.path}/contacts/${bruno.id}`)).status).toBeLessThan(300);
    expect(await found('912345')).toEqual([]);
  });

  it('is served by an index', async () => {
    if (testDialect === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan
        select id from contacts where account_id = 1 and contacts.id in
        (select rowid from contacts_trgm where contacts_trgm match '"souza"')`.execute(t.db);
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
    } else {
      const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes
        where schemaname = current_schema() and tablename = 'contacts' and indexname like '%trgm_idx' order by indexname`.execute(
        t.db,
      );
      expect(indexes.rows.map((r) => r.indexname)).toEqual([
        'contacts_email_trgm_idx',
        'contacts_identifier_trgm_idx',
        'contacts_name_trgm_idx',
        'contacts_phone_number_trgm_idx',
      ]);
    }
  });
});
