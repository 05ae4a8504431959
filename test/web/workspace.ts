import { expect } from 'vitest';
import { addInboxMembers, newConversation, newInbox, newTeam, type TestAccount } from '../helpers/factories.js';
import { client } from '../helpers/http.js';
import type { ChatTestApp } from '../helpers/test-app.js';
import type { Seeded } from './dashboard.js';

/**
 * An account to work in, seeded through the API as its people would: two inboxes (the agent Rui
 * is a member of Website only), a team, labels, and conversations with customers' messages, some
 * assigned. Paula administers it.
 */
export interface Workspace {
  acme: TestAccount;
  website: { id: number };
  billing: { id: number };
  team: { id: number; name: string };
  /** Website: unassigned, from Carla, labelled refund. */
  carla: { id: number; contactId: number };
  /** Website: assigned to Rui and the team Tier 1, from Diego. */
  diego: { id: number; contactId: number };
  /** Website: assigned to Paula, from Elisa. */
  elisa: { id: number; contactId: number };
  /** Billing (Rui is not a member): unassigned, from Fábio. */
  fabio: { id: number; contactId: number };
}

export async function label(t: ChatTestApp, account: TestAccount, title: string, color: string) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/labels`, { title, color });
  expect(res.status, res.text).toBe(200);
}

async function conversationFrom(
  t: ChatTestApp,
  account: TestAccount,
  inboxId: number,
  name: string,
  email: string,
  messages: string[],
  assigneeId?: number,
) {
  const sourceId = `src-${email}`;
  const contact = await client(t.app, account.admin.token).post(`${account.path}/contacts`, {
    name,
    email,
    inbox_id: inboxId,
    source_id: sourceId,
  });
  expect(contact.status, contact.text).toBe(200);
  const c = await newConversation(t, account, { inboxId, contactSourceId: sourceId, assigneeId });
  for (const content of messages) {
    const res = await client(t.app, account.admin.token).post(`${account.path}/conversations/${c.id}/messages`, {
      content,
      message_type: 'incoming',
    });
    expect(res.status, res.text).toBe(200);
  }
  return { id: c.id, contactId: contact.body.payload.contact.id as number };
}

export async function seedWorkspace(t: ChatTestApp, people: Seeded): Promise<Workspace> {
  const acme: TestAccount = { id: people.acme.id, path: `/api/v1/accounts/${people.acme.id}`, admin: people.paula };
  const website = await newInbox(t, acme, { type: 'api' }, 'Website');
  const billing = await newInbox(t, acme, { type: 'api' }, 'Billing');
  await addInboxMembers(t, acme, website.id, [people.rui.id, people.paula.id]);
  await addInboxMembers(t, acme, billing.id, [people.paula.id]);
  const team = await newTeam(t, acme, 'Tier 1');
  await label(t, acme, 'vip', '#e11d48');
  await label(t, acme, 'refund', '#0ea5e9');
  const fabio = await conversationFrom(t, acme, billing.id, 'Fábio Lima', 'fabio@example.test', [
    'My invoice for March is wrong.',
  ]);
  const elisa = await conversationFrom(
    t,
    acme,
    website.id,
    'Elisa Rocha',
    'elisa@example.test',
    ['Can I change my delivery address?'],
    people.paula.id,
  );
  const diego = await conversationFrom(
    t,
    acme,
    website.id,
    'Diego Alves',
    'diego@example.test',
    ['The app logs me out every hour.'],
    people.rui.id,
  );
  const carla = await conversationFrom(t, acme, website.id, 'Carla Mendes', 'carla@example.test', [
    'Hello! My order #4512 arrived damaged.',
    'I would like a **refund**, please.',
  ]);
  const admin = client(t.app, acme.admin.token);
  const labelled = await admin.post(`${acme.path}/conversations/${carla.id}/labels`, { labels: ['refund'] });
  expect(labelled.status, labelled.text).toBe(200);
  const teamed = await admin.post(`${acme.path}/conversations/${diego.id}/assignments`, { team_id: team.id });
  expect(teamed.status, teamed.text).toBe(200);
  return { acme, website, billing, team, carla, diego, elisa, fabio };
}
