import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  newTeam,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';

/**
 * The list's counts come from trigger-kept buckets (migration 0016). Whatever happens to
 * conversations (created, assigned, moved between statuses and teams, a team deleted, a
 * conversation deleted with its contact, rows written by SQL directly), the counts the API
 * answers equal a count of the conversations themselves.
 */
let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account);
});
afterAll(async () => {
  await t.close();
});

type Filter = { status?: string; inbox_id?: number; team_id?: number };

/** all / unassigned / mine (of `userId`) counted from the conversations table. */
async function counted(accountId: number, filter: Filter, userId: number, inboxIds?: number[]) {
  let q = t.db.selectFrom('conversations').where('account_id', '=', accountId);
  if (filter.status && filter.status !== 'all') q = q.where('status', '=', filter.status as 'open');
  if (filter.inbox_id !== undefined) q = q.where('inbox_id', '=', filter.inbox_id);
  if (filter.team_id !== undefined) q = q.where('team_id', '=', filter.team_id);
  if (inboxIds) q = q.where('inbox_id', 'in', inboxIds);
  const rows = await q.select(['assignee_id']).execute();
  return {
    all_count: rows.length,
    unassigned_count: rows.filter((r) => r.assignee_id === null).length,
    mine_count: rows.filter((r) => r.assignee_id === userId).length,
  };
}

async function metaOf(token: string, acc: TestAccount, filter: Filter) {
  const query = new URLSearchParams(Object.entries(filter).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await client(t.app, token).get(`${acc.path}/conversations/meta?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { mine_count, unassigned_count, all_count } = res.body.meta;
  return { mine_count, unassigned_count, all_count };
}

describe('conversation counts', () => {
  it('equal a count of the conversations after every kind of change', async () => {
    const inboxA = await newInbox(t, account);
    const inboxB = await newInbox(t, account);
    await addInboxMembers(t, account, inboxA.id, [agent.id]);
    const team = await newTeam(t, account);
    const doomedTeam = await newTeam(t, account);
    const admin = client(t.app, account.admin.token);
    const made = [];
    for (let i = 0; i < 6; i++) {
      made.push(
        await newConversation(t, account, {
          inboxId: i % 2 === 0 ? inboxA.id : inboxB.id,
          ...(i % 3 === 0 ? { assigneeId: account.admin.id } : {}),
          ...(i === 1 ? { teamId: doomedTeam.id } : {}),
          ...(i === 4 ? { status: 'pending' as const } : {}),
        }),
      );
    }
    await newConversation(t, other, {});
    // Changes through the API: status, assignee, team.
    expect(
      (await admin.post(`${account.path}/conversations/${made[1].id}/toggle_status`, { status: 'resolved' })).status,
    ).toBe(200);
    expect(
      (await admin.post(`${account.path}/conversations/${made[2].id}/assignments`, { assignee_id: agent.id })).status,
    ).toBe(200);
    expect(
      (await admin.post(`${account.path}/conversations/${made[3].id}/assignments`, { team_id: team.id })).status,
    ).toBe(200);
    expect(
      (await admin.post(`${account.path}/conversations/${made[5].id}/toggle_status`, { status: 'snoozed' })).status,
    ).toBe(200);
    // A team deleted: its conversations lose the team (the database sets it null).
    expect((await admin.delete(`${account.path}/teams/${doomedTeam.id}`)).status).toBeLessThan(300);
    // A contact deleted with its conversations.
    expect((await admin.delete(`${account.path}/contacts/${made[0].contact.id}`)).status).toBeLessThan(300);
    // Written by SQL directly, as an import or an operator would.
    await sql`update conversations set status = 'resolved' where account_id = ${account.id} and display_id = ${made[4].id}`.execute(
      t.db,
    );

    const filters: Filter[] = [
      {},
      { status: 'all' },
      { status: 'open' },
      { status: 'resolved' },
      { status: 'snoozed' },
      { status: 'pending' },
      { inbox_id: inboxA.id },
      { inbox_id: inboxB.id, status: 'all' },
      { team_id: team.id, status: 'all' },
      { team_id: doomedTeam.id, status: 'all' },
    ];
    for (const filter of filters) {
      const expected = await counted(account.id, { status: 'open', ...filter }, account.admin.id);
      expect(await metaOf(account.admin.token, account, filter), JSON.stringify(filter)).toEqual(expected);
    }
    // An agent counts only the inboxes they are a member of.
    expect(await metaOf(agent.token, account, { status: 'all' })).toEqual(
      await counted(account.id, { status: 'all' }, agent.id, [inboxA.id]),
    );
    // The list carries the same counts; another account's conversations are never counted.
    const list = await admin.get(`${account.path}/conversations?status=all`);
    expect(list.body.data.meta).toMatchObject(await counted(account.id, { status: 'all' }, account.admin.id));
    expect(await metaOf(other.admin.token, other, { status: 'all' })).toEqual({
      mine_count: 0,
      unassigned_count: 1,
      all_count: 1,
    });
    // The filter endpoint with plain criteria (status, inbox: counted from the buckets) answers
    // the same rows and counts as the list; with other criteria it counts the matches.
    const criteria = [
      { attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: 'and' },
      { attribute_key: 'inbox_id', filter_operator: 'equal_to', values: [inboxA.id] },
    ];
    const filtered = await admin.post(`${account.path}/conversations/filter`, { payload: criteria });
    expect(filtered.status, JSON.stringify(filtered.body)).toBe(200);
    const listed = await admin.get(`${account.path}/conversations?status=open&inbox_id=${inboxA.id}`);
    const idsOf = (body: { payload?: { id: number }[]; data?: { payload: { id: number }[] } }) =>
      (body.payload ?? body.data!.payload).map((c) => c.id);
    expect(idsOf(filtered.body)).toEqual(idsOf(listed.body));
    expect(filtered.body.meta).toMatchObject(
      await counted(account.id, { status: 'open', inbox_id: inboxA.id }, account.admin.id),
    );
    const orCriteria = [
      { attribute_key: 'status', filter_operator: 'equal_to', values: ['resolved'], query_operator: 'or' },
      { attribute_key: 'status', filter_operator: 'equal_to', values: ['snoozed'] },
    ];
    const either = await admin.post(`${account.path}/conversations/filter`, { payload: orCriteria });
    const resolved = await counted(account.id, { status: 'resolved' }, account.admin.id);
    const snoozed = await counted(account.id, { status: 'snoozed' }, account.admin.id);
    expect(either.body.meta.all_count).toBe(resolved.all_count + snoozed.all_count);
    // Another account's id in the path: 404.
    expect((await admin.get(`${other.path}/conversations/meta`)).status).toBe(404);
  });
});
