import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ChatTestApp } from './test-app.js';
import { client } from './http.js';

/**
 * Seeds data through the public HTTP interface, as an operator would. Every factory asserts
 * its own calls succeed so a broken factory fails loudly where it broke.
 */

const unique = () => randomBytes(5).toString('hex');

export interface TestUser {
  id: number;
  email: string;
  token: string;
}

export interface TestAccount {
  id: number;
  /** `/api/v1/accounts/{id}` */
  path: string;
  admin: TestUser;
}

export async function newUser(t: ChatTestApp, name = 'Test User'): Promise<TestUser> {
  const res = await client(t.app, t.platformToken).post('/platform/api/v1/users', {
    name,
    email: `${unique()}@example.test`,
    password: 'correct horse battery',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.id, email: res.body.email, token: res.body.access_token };
}

export async function addMember(t: ChatTestApp, accountId: number, userId: number, role: 'administrator' | 'agent') {
  const res = await client(t.app, t.platformToken).post(`/platform/api/v1/accounts/${accountId}/account_users`, {
    user_id: userId,
    role,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** An account with one administrator. */
export async function newAccount(t: ChatTestApp, name = 'Acme'): Promise<TestAccount> {
  const res = await client(t.app, t.platformToken).post('/platform/api/v1/accounts', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const admin = await newUser(t, 'Admin');
  await addMember(t, res.body.id, admin.id, 'administrator');
  return { id: res.body.id, path: `/api/v1/accounts/${res.body.id}`, admin };
}

/** A user with the agent role in the account. */
export async function newAgent(t: ChatTestApp, account: TestAccount, name = 'Agent'): Promise<TestUser> {
  const user = await newUser(t, name);
  await addMember(t, account.id, user.id, 'agent');
  return user;
}

export async function newInbox(
  t: ChatTestApp,
  account: TestAccount,
  channel: Record<string, unknown> = { type: 'api' },
  name = 'Support',
) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/inboxes`, { name, channel });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; inbox_identifier: string | null; channel_type: string };
}

export async function newContact(t: ChatTestApp, account: TestAccount, fields: Record<string, unknown> = {}) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/contacts`, {
    name: 'Carla Contact',
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload as {
    contact: { id: number; name: string; email: string | null };
    contact_inbox: { source_id: string; inbox: { id: number } } | null;
  };
}

export async function newTeam(t: ChatTestApp, account: TestAccount, name = `Team ${unique()}`) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/teams`, { name });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; name: string };
}

export async function addTeamMembers(t: ChatTestApp, account: TestAccount, teamId: number, userIds: number[]) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/teams/${teamId}/team_members`, {
    user_ids: userIds,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export async function addInboxMembers(t: ChatTestApp, account: TestAccount, inboxId: number, userIds: number[]) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/inbox_members`, {
    inbox_id: inboxId,
    user_ids: userIds,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

export interface NewConversationOptions {
  /** The inbox (default: a new API inbox). */
  inboxId?: number;
  /** The contact's source id in the inbox (default: a new contact with a fresh source id). */
  contactSourceId?: string;
  status?: 'open' | 'pending';
  assigneeId?: number;
  teamId?: number;
  message?: { content: string; content_type?: string };
  /** Who creates it (default: the account's administrator). */
  token?: string;
}

/** A conversation (created through POST {A}/conversations); returns the conversation object. */
export async function newConversation(t: ChatTestApp, account: TestAccount, options: NewConversationOptions = {}) {
  const inboxId = options.inboxId ?? (await newInbox(t, account)).id;
  let sourceId = options.contactSourceId;
  if (sourceId === undefined) {
    sourceId = `src-${unique()}`;
    await newContact(t, account, { name: `Contact ${unique()}`, inbox_id: inboxId, source_id: sourceId });
  }
  const body: Record<string, unknown> = { inbox_id: inboxId, source_id: sourceId };
  if (options.status) body.status = options.status;
  if (options.assigneeId !== undefined) body.assignee_id = options.assigneeId;
  if (options.teamId !== undefined) body.team_id = options.teamId;
  if (options.message) body.message = options.message;
  const res = await client(t.app, options.token ?? account.admin.token).post(`${account.path}/conversations`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    id: number;
    inbox_id: number;
    status: string;
    contact: { id: number; name: string };
    assignee: { id: number } | null;
    [field: string]: any;
  };
}

/** A message in a conversation (outgoing from the administrator unless `fields` say otherwise). */
export async function newMessage(
  t: ChatTestApp,
  account: TestAccount,
  conversationId: number,
  fields: Record<string, unknown> = {},
  token = account.admin.token,
) {
  const res = await client(t.app, token).post(`${account.path}/conversations/${conversationId}/messages`, {
    content: `Message ${unique()}`,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; content: string | null; message_type: number; [field: string]: any };
}

/* Public interface (src/chat/public): a contact and its conversations, addressed by identifiers. */

/** `/public/api/v1/inboxes/{inbox_identifier}` */
export const publicInboxPath = (inboxIdentifier: string) =>
  `/public/api/v1/inboxes/${encodeURIComponent(inboxIdentifier)}`;

/** A contact created through the public interface; returns Chatwoot's public contact. */
export async function newPublicContact(t: ChatTestApp, inboxIdentifier: string, fields: Record<string, unknown> = {}) {
  const res = await client(t.app).post(`${publicInboxPath(inboxIdentifier)}/contacts`, {
    name: `Visitor ${unique()}`,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    id: number;
    source_id: string;
    pubsub_token: string;
    name: string;
    email: string | null;
    phone_number: string | null;
  };
}

/** A conversation started by a public contact; returns Chatwoot's public conversation. */
export async function newPublicConversation(
  t: ChatTestApp,
  inboxIdentifier: string,
  sourceId: string,
  body: Record<string, unknown> = {},
) {
  const res = await client(t.app).post(
    `${publicInboxPath(inboxIdentifier)}/contacts/${encodeURIComponent(sourceId)}/conversations`,
    body,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    id: number;
    inbox_id: number;
    status: string;
    contact_last_seen_at: string | null;
    [field: string]: any;
  };
}
