import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { expect } from 'vitest';
import {
  addInboxMembers,
  addTeamMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newMessage,
  newPublicContact,
  newPublicConversation,
  newTeam,
  newUser,
  publicInboxPath,
  type TestAccount,
  type TestUser,
} from './factories.js';
import {
  TEST_PASSWORD,
  addFinanceMember,
  financeCall,
  newFinanceAccount,
  newFinanceBill,
  newFinanceContract,
  newFinanceInvoice,
  newFinanceNotifications,
  newFinanceTransaction,
  randomIp,
  type FinanceTestAccount,
  type FinanceTestUser,
} from './finance-factories.js';
import {
  Fresh,
  draw,
  encodeSegment,
  nastySegmentArb,
  type FuzzAnswer,
  type FuzzRequest,
  type FuzzTarget,
  type Json,
  type Operation,
  type Parameter,
} from './fuzz.js';
import { chatDeclared } from '../../src/chat/modules.js';
import { call, client } from './http.js';
import type { ChatTestApp, FinanceTestApp } from './test-app.js';

/**
 * The two services as fuzz targets: the data each run starts from, which ids a path parameter
 * should mostly name, which credentials a request carries, meaningful values for well-known field
 * names, and the repairs that keep the seeded data in place when a request deletes or demotes it.
 */

const unique = () => randomBytes(4).toString('hex');

/**
 * Error codes the services' error handler writes: lower snake case (Fastify's own codes arrive
 * lower-cased too). An upper-case `FST_ERR_*` code means an answer that bypassed the handler.
 */
const SERVICE_CODE = /^[a-z][a-z0-9_]*$/;
const ok = (res: { status: number }) => res.status >= 200 && res.status < 300;

/** The path segment right before `{param}` ("contacts" in `/contacts/{id}`). */
const segmentBefore = (op: Operation, param: Parameter) => {
  const parts = op.path.split('/');
  const at = parts.indexOf(`{${param.name}}`);
  return at > 0 ? parts[at - 1] : '';
};

/** The path parameters of a request, decoded (undefined where a value does not decode). */
function pathValues(op: Operation, url: string, names?: string[]): string[] {
  const template = op.path.split('/');
  const actual = url.split('?')[0].split('/');
  const out: string[] = [];
  template.forEach((part, i) => {
    if (!part.startsWith('{') || (names && !names.includes(part.slice(1, -1)))) return;
    try {
      out.push(decodeURIComponent(actual[i] ?? ''));
    } catch {
      /* not a valid encoding: names nothing */
    }
  });
  return out;
}

/** Whether a request named one of the seeded records in its path. */
function namesSeeded(
  op: Operation,
  url: string,
  params: Parameter[],
  pool: (p: Parameter) => (string | number)[],
): boolean {
  const seeded = new Set(params.flatMap((p) => pool(p)).map(String));
  return pathValues(
    op,
    url,
    params.map((p) => p.name),
  ).some((v) => seeded.has(v));
}

/** Mostly one of the ids that exist, sometimes a small id, otherwise something an id must refuse. */
function pickSegment(g: fc.GeneratorValue, pool: (string | number)[]): string {
  const existing = pool
    .filter((v) => v !== undefined && v !== null && String(v) !== '')
    .map((v) => encodeSegment(String(v)));
  return draw(g, `segment|${existing.join('/')}`, () =>
    fc.oneof(
      { weight: existing.length > 0 ? 6 : 0, arbitrary: fc.constantFrom(...(existing.length > 0 ? existing : ['1'])) },
      { weight: 1, arbitrary: fc.constantFrom('1', '2', '3', '4') },
      { weight: 3, arbitrary: nastySegmentArb() },
    ),
  );
}

/** Token values that must be refused cleanly (ASCII only: header values are bytes). */
function garbageTokens(real: string): string[] {
  return [
    '',
    ' ',
    'null',
    'undefined',
    'x',
    'a'.repeat(5000),
    "' OR '1'='1",
    'Bearer',
    '\t',
    '%00',
    `${real}x`,
    real.slice(0, -1),
    real.toUpperCase(),
    ` ${real} `,
    `${real},${real}`,
    'eyJhbGciOiJub25lIn0.eyJ1c2VySWQiOjEsImFjY291bnRJZCI6MX0.',
    'a.b.c',
    'e30.e30.e30',
  ];
}

function weighted<T>(g: fc.GeneratorValue, choices: [number, T][]): T {
  const usable = choices.filter(([w]) => w > 0);
  const key = `weighted|${JSON.stringify(usable.map(([w, v]) => [w, v === undefined ? '<none>' : v]))}`;
  return draw(g, key, () => fc.oneof(...usable.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) }))));
}

// =============================================================================================
// The conversation service

interface ChatState {
  account: TestAccount;
  agent: TestUser;
  /** A platform user in no account (platform PATCH/DELETE users aim here, not at the admin). */
  victimUser: TestUser;
  /** A second account with no members (platform PATCH/DELETE accounts aim here). */
  victimAccountId: number;
  inbox: { id: number; identifier: string };
  widget: { id: number; identifier: string };
  contact: { id: number; sourceId: string };
  conversation: number;
  message: number;
  team: number;
  bot: { id: number; token: string };
  webhook: number;
  rule: number;
  platformBot: number;
  publicContact: string;
  publicConversation: number;
  publicMessage: number;
  attachment?: { key: string; name: string };
}

const RULE_EVENTS = [
  'conversation_created',
  'conversation_updated',
  'message_created',
  'conversation_opened',
  'conversation_resolved',
];
const ATTRIBUTE_KEYS = [
  'status',
  'priority',
  'assignee_id',
  'team_id',
  'inbox_id',
  'contact_id',
  'display_id',
  'created_at',
  'last_activity_at',
  'labels',
  'contact_name',
  'contact_email',
  'contact_phone_number',
  'content',
  'message_type',
  'browser_language',
];
const FILTER_OPERATORS = [
  'equal_to',
  'not_equal_to',
  'contains',
  'does_not_contain',
  'is_present',
  'is_not_present',
  'is_greater_than',
  'is_less_than',
  'days_before',
  'starts_with',
];
const ACTION_NAMES = [
  'assign_agent',
  'assign_team',
  'add_label',
  'remove_label',
  'send_email',
  'mute_conversation',
  'change_status',
  'change_priority',
  'snooze_conversation',
  'resolve_conversation',
];
// The events the conversation service's modules declare, as a subscription names them.
const CHAT_WEBHOOK_EVENTS = [...chatDeclared.webhookEvents];
const URLS = [
  'https://hooks.example.test/in',
  'https://hooks.example.test/other',
  'https://crm.example.test/webhook?token=x',
  'http://127.0.0.1:5432/',
  'http://169.254.169.254/latest/meta-data',
  'https://[::1]/x',
  'https://example.test/' + 'p'.repeat(2100),
];
const TIME_ZONES = ['UTC', 'America/Sao_Paulo', 'Asia/Kolkata', 'Etc/GMT+14', 'Mars/Olympus', 'utc', ''];

export class ChatFuzzTarget implements FuzzTarget {
  readonly name = 'conversation service';
  s!: ChatState;
  private counter = 0;
  /** How many times the seeded account had to be rebuilt (a destroyed admin or account). */
  reseeds = 0;

  constructor(readonly t: ChatTestApp) {}

  app() {
    return this.t.app;
  }

  private get admin() {
    return client(this.t.app, this.s.account.admin.token);
  }

  private get platform() {
    return client(this.t.app, this.t.platformToken);
  }

  async seed(): Promise<void> {
    const account = await newAccount(this.t, `Fuzz ${unique()}`);
    const agent = await newAgent(this.t, account);
    const victimUser = await newUser(this.t, 'Victim');
    const victim = await this.platform.post('/platform/api/v1/accounts', { name: `Victim ${unique()}` });
    expect(victim.status, JSON.stringify(victim.body)).toBe(200);
    this.s = { account, agent, victimUser, victimAccountId: victim.body.id } as ChatState;
    await this.createInbox();
    await this.createWidget();
    await this.createContact();
    await this.createConversation();
    await this.createMessage();
    await this.createTeam();
    await this.createBot();
    await this.createWebhook();
    await this.createRule();
    await this.createPlatformBot();
    await this.createPublicContact();
    await this.createPublicConversation();
    await this.createPublicMessage();
    await this.createAttachment();
    this.generation++;
  }

  private async createInbox() {
    const inbox = await newInbox(this.t, this.s.account, { type: 'api' }, `API ${unique()}`);
    this.s.inbox = { id: inbox.id, identifier: inbox.inbox_identifier ?? '' };
    await addInboxMembers(this.t, this.s.account, inbox.id, [this.s.agent.id]);
  }

  private async createWidget() {
    const widget = await newInbox(
      this.t,
      this.s.account,
      { type: 'web_widget', website_url: 'https://shop.example.test' },
      `Widget ${unique()}`,
    );
    this.s.widget = { id: widget.id, identifier: widget.inbox_identifier ?? '' };
  }

  private async createContact() {
    const sourceId = `fuzz-${unique()}`;
    const contact = await newContact(this.t, this.s.account, {
      name: 'Fuzz Contact',
      email: `c-${unique()}@example.test`,
      inbox_id: this.s.inbox.id,
      source_id: sourceId,
    });
    this.s.contact = { id: contact.contact.id, sourceId };
  }

  private async createConversation() {
    const conversation = await newConversation(this.t, this.s.account, {
      inboxId: this.s.inbox.id,
      contactSourceId: this.s.contact.sourceId,
      message: { content: 'first' },
    });
    this.s.conversation = conversation.id;
  }

  private async createMessage() {
    this.s.message = (await newMessage(this.t, this.s.account, this.s.conversation)).id;
  }

  private async createTeam() {
    this.s.team = (await newTeam(this.t, this.s.account)).id;
    await addTeamMembers(this.t, this.s.account, this.s.team, [this.s.agent.id]);
  }

  private async createBot() {
    const res = await this.admin.post(`${this.s.account.path}/agent_bots`, {
      name: 'Fuzz bot',
      outgoing_url: 'https://bot.example.test/hook',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    this.s.bot = { id: res.body.id, token: res.body.access_token ?? '' };
  }

  private async createWebhook() {
    const res = await this.admin.post(`${this.s.account.path}/webhooks`, {
      url: 'https://hooks.example.test/chat',
      subscriptions: ['conversation_created'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    this.s.webhook = res.body.payload?.webhook?.id ?? res.body.payload?.id ?? res.body.id;
  }

  private async createRule() {
    const res = await this.admin.post(`${this.s.account.path}/automation_rules`, {
      name: 'Fuzz rule',
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: null }],
      actions: [{ action_name: 'add_label', action_params: ['fuzzed'] }],
      active: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    this.s.rule = res.body.payload?.id ?? res.body.id;
  }

  private async createPlatformBot() {
    const res = await this.platform.post('/platform/api/v1/agent_bots', {
      name: 'Platform bot',
      outgoing_url: 'https://bot.example.test/platform',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    this.s.platformBot = res.body.id;
  }

  private async createPublicContact() {
    this.s.publicContact = (await newPublicContact(this.t, this.s.inbox.identifier)).source_id;
  }

  private async createPublicConversation() {
    this.s.publicConversation = (await newPublicConversation(this.t, this.s.inbox.identifier, this.s.publicContact)).id;
  }

  private async createPublicMessage() {
    const url = `${publicInboxPath(this.s.inbox.identifier)}/contacts/${encodeURIComponent(this.s.publicContact)}/conversations/${this.s.publicConversation}/messages`;
    const res = await client(this.t.app).post(url, { content: 'hello from the widget' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    this.s.publicMessage = res.body.id;
  }

  /** A message with a text file, so that `/attachments/{key}/{name}` has something to serve. */
  private async createAttachment() {
    const boundary = 'fuzzSeedBoundary';
    const payload = [
      `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\nwith a file\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const res = await this.t.app.inject({
      method: 'POST',
      url: `${this.s.account.path}/conversations/${this.s.conversation}/messages`,
      headers: {
        api_access_token: this.s.account.admin.token,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const dataUrl: string | undefined = res.json().attachments?.[0]?.data_url;
    const match = dataUrl ? /\/attachments\/([^/]+)\/([^/?]+)/.exec(new URL(dataUrl).pathname) : null;
    this.s.attachment = match ? { key: decodeURIComponent(match[1]), name: decodeURIComponent(match[2]) } : undefined;
  }

  /** Puts back what requests destroyed: the whole account when its admin no longer works. */
  async repair(): Promise<void> {
    const before = JSON.stringify(this.s);
    await this.restore();
    if (JSON.stringify(this.s) !== before) this.generation++;
  }

  private async restore(): Promise<void> {
    const s = this.s;
    const A = s.account.path;
    const probe = await this.admin.get(`${A}/webhooks`);
    const account = await this.platform.get(`/platform/api/v1/accounts/${s.account.id}`);
    if (probe.status !== 200 || account.status !== 200 || account.body.status !== 'active') {
      this.reseeds++;
      await this.seed();
      return;
    }
    const exists = async (url: string, token = s.account.admin.token) =>
      (await call(this.t.app, { url, token })).status === 200;
    const listed = async (url: string, id: number, token?: string) => {
      const res = await call(this.t.app, { url, token });
      const list = Array.isArray(res.body) ? res.body : (res.body?.payload ?? []);
      return res.status === 200 && Array.isArray(list) && list.some((m: { id: number }) => m.id === id);
    };
    const agents = await this.admin.get(`${A}/agents`);
    if (!(Array.isArray(agents.body) && agents.body.some((a: { id: number; role: string }) => a.id === s.agent.id))) {
      s.agent = await newAgent(this.t, s.account);
      await addInboxMembers(this.t, s.account, s.inbox.id, [s.agent.id]);
    }
    if (!(await exists(`/platform/api/v1/users/${s.victimUser.id}`, this.t.platformToken)))
      s.victimUser = await newUser(this.t, 'Victim');
    if (!(await exists(`/platform/api/v1/accounts/${s.victimAccountId}`, this.t.platformToken))) {
      s.victimAccountId = (
        await this.platform.post('/platform/api/v1/accounts', { name: `Victim ${unique()}` })
      ).body.id;
    }
    if (!(await exists(`${A}/inboxes/${s.inbox.id}`))) await this.createInbox();
    if (!(await exists(`${A}/inboxes/${s.widget.id}`))) await this.createWidget();
    if (!(await exists(`${A}/contacts/${s.contact.id}`))) await this.createContact();
    if (!(await exists(`${A}/conversations/${s.conversation}`))) {
      // The conversation needs the contact in the API inbox (a deleted inbox took the contact inbox along).
      await this.createContact();
      await this.createConversation();
    }
    if (!(await listed(`${A}/conversations/${s.conversation}/messages`, s.message, s.account.admin.token)))
      await this.createMessage();
    if (!(await exists(`${A}/teams/${s.team}`))) await this.createTeam();
    if (!(await exists(`${A}/agent_bots/${s.bot.id}`))) await this.createBot();
    if (!(await exists(`${A}/webhooks/${s.webhook}`))) await this.createWebhook();
    if (!(await exists(`${A}/automation_rules/${s.rule}`))) await this.createRule();
    if (!(await exists(`/platform/api/v1/agent_bots/${s.platformBot}`, this.t.platformToken)))
      await this.createPlatformBot();
    const contactPath = `${publicInboxPath(s.inbox.identifier)}/contacts/${encodeURIComponent(s.publicContact)}`;
    if (!(await exists(contactPath, ''))) await this.createPublicContact();
    const conversationPath = `${publicInboxPath(s.inbox.identifier)}/contacts/${encodeURIComponent(s.publicContact)}/conversations/${s.publicConversation}`;
    if (!(await exists(conversationPath, ''))) await this.createPublicConversation();
    if (
      !(await listed(
        `${publicInboxPath(s.inbox.identifier)}/contacts/${encodeURIComponent(s.publicContact)}/conversations/${s.publicConversation}/messages`,
        s.publicMessage,
      ))
    ) {
      await this.createPublicMessage();
    }
    if (
      !s.attachment ||
      !(await exists(
        `/attachments/${encodeURIComponent(s.attachment.key)}/${encodeURIComponent(s.attachment.name)}`,
        '',
      ))
    ) {
      await this.createAttachment();
    }
  }

  /** Existing ids for a path parameter; platform writes aim at the victim account and user. */
  private pool(op: Operation, param: Parameter): (string | number)[] {
    const s = this.s;
    const isPublic = op.path.startsWith('/public/');
    switch (param.name) {
      case 'accountId':
        return [s.account.id];
      case 'account_id':
        return op.method === 'GET' ? [s.account.id, s.victimAccountId] : [s.victimAccountId];
      case 'inbox_identifier':
        return [s.inbox.identifier, s.widget.identifier];
      case 'contact_identifier':
        return [s.publicContact];
      case 'conversation_id':
        return [s.publicConversation];
      case 'message_id':
        return isPublic ? [s.publicMessage] : [s.message];
      case 'team_id':
        return [s.team];
      case 'inbox_id':
        return [s.inbox.id, s.widget.id];
      case 'key':
        return s.attachment ? [s.attachment.key] : [];
      case 'name':
        return s.attachment ? [s.attachment.name] : [];
      default:
        break;
    }
    switch (segmentBefore(op, param)) {
      case 'users':
        return op.method === 'GET' ? [s.account.admin.id, s.agent.id, s.victimUser.id] : [s.victimUser.id, s.agent.id];
      case 'agent_bots':
        return op.path.startsWith('/platform/') ? [s.platformBot] : [s.bot.id];
      case 'inboxes':
        return [s.inbox.id, s.widget.id];
      case 'contacts':
        return [s.contact.id];
      case 'agents':
        return [s.agent.id];
      case 'conversations':
        return [s.conversation];
      case 'webhooks':
        return [s.webhook];
      case 'automation_rules':
        return [s.rule];
      default:
        return [];
    }
  }

  segment(g: fc.GeneratorValue, op: Operation, param: Parameter): string {
    return pickSegment(g, this.pool(op, param));
  }

  credentials(g: fc.GeneratorValue, op: Operation): Record<string, string> {
    const s = this.s;
    const admin = s.account.admin.token;
    const platform = this.t.platformToken;
    const scheme = op.security[0];
    const token = weighted<string | undefined | 'garbage'>(g, [
      [scheme === 'userApiKey' ? 80 : scheme === 'platformAppApiKey' ? 6 : 10, admin],
      [scheme === 'platformAppApiKey' ? 80 : 4, platform],
      [scheme === 'userApiKey' ? 5 : 1, s.agent.token],
      [scheme === 'userApiKey' ? 3 : 1, s.bot.token],
      [scheme === 'userApiKey' ? 3 : 1, s.victimUser.token],
      [5, 'garbage'],
      [scheme === undefined ? 78 : 5, undefined],
    ]);
    if (token === undefined) return {};
    const value = token === 'garbage' ? g(fc.constantFrom, ...garbageTokens(admin)) : token;
    const spelling = g(
      fc.constantFrom,
      'api_access_token',
      'api_access_token',
      'api_access_token',
      'api-access-token',
      'authorization',
    );
    return spelling === 'authorization' ? { authorization: `Bearer ${value}` } : { [spelling]: value };
  }

  private fresh(prefix: string) {
    return `${prefix}-${++this.counter}`;
  }

  /** Bumped whenever seeded data is rebuilt, so that arbitraries holding old ids are rebuilt too. */
  private generation = 0;

  readonly ctx = {
    version: () => this.generation,
    hints: (name: string | undefined): Json[] | undefined => {
      const s = this.s;
      switch (name) {
        case 'email':
        case 'support_email':
          return [s.account.admin.email, s.agent.email, new Fresh(() => `${this.fresh('fuzz')}@example.test`)];
        case 'password':
          return ['correct horse battery'];
        case 'name':
          return [new Fresh(() => this.fresh('Fuzz name')), 'Fuzz contact'];
        case 'inbox_id':
          return [s.inbox.id, s.widget.id];
        case 'contact_id':
          return [s.contact.id];
        case 'assignee_id':
          return [s.account.admin.id, s.agent.id, null];
        case 'team_id':
          return [s.team, null];
        case 'user_id':
          return [s.agent.id, s.victimUser.id];
        case 'user_ids':
          return [[s.agent.id], [s.agent.id, s.account.admin.id], [s.victimUser.id], []];
        case 'agent_bot':
          return [s.bot.id, null];
        case 'source_id':
          return [s.contact.sourceId, new Fresh(() => this.fresh('src'))];
        case 'identifier':
          return [new Fresh(() => this.fresh('ident'))];
        case 'labels':
          return [['vip'], ['billing', 'vip'], ['ÜBER', '  spaced  ', 'vip']];
        case 'event_name':
          return RULE_EVENTS;
        case 'attribute_key':
          return ATTRIBUTE_KEYS;
        case 'filter_operator':
          return FILTER_OPERATORS;
        case 'query_operator':
          return ['AND', 'OR', 'and', null];
        case 'action_name':
          return ACTION_NAMES;
        case 'action_params':
          return [['vip'], [s.agent.id], [s.team], ['ops@example.test'], ['high'], ['resolved'], [], null];
        case 'values':
          return [['open'], ['vip'], [1], [s.agent.id], ['2025-01-01'], [3], ['none'], ['high'], ['a%_\\'], []];
        case 'subscriptions':
          return [['conversation_created'], CHAT_WEBHOOK_EVENTS, ['nope']];
        case 'url':
        case 'outgoing_url':
        case 'website_url':
        case 'webhook_url':
        case 'avatar_url':
          return URLS;
        case 'timezone':
          return TIME_ZONES;
        case 'content':
          return ['hello', 'this is urgent', ''];
        case 'identifier_hash':
          return ['0'.repeat(64)];
        case 'phone_number':
          return ['+5511999990000', null];
        case 'sso_auth_token':
          return ['not-a-real-sso-token'];
        case 'message':
          return [{ content: 'hi' }];
        default:
          return undefined;
      }
    },
  };

  /** `{error, code}` with one of the service's own codes (lower snake case, as the error handler writes them). */
  isErrorBody(body: unknown): boolean {
    const b = body as { error?: unknown; code?: unknown } | null;
    return (
      !!b &&
      typeof b === 'object' &&
      typeof b.error === 'string' &&
      typeof b.code === 'string' &&
      SERVICE_CODE.test(b.code)
    );
  }

  /** After a write that can take seeded data or the admin's standing away, put things back. */
  async after(op: Operation, req: FuzzRequest, answer: FuzzAnswer): Promise<void> {
    if (op.method === 'GET' || !ok(answer)) return;
    // Memberships, users and accounts can take the admin's standing away whatever the path names.
    if (/^\/platform\/|\/agents|\/inbox_members|\/team_members/.test(op.path)) return this.repair();
    // A delete of a record the fuzzer made itself (named by the last parameter) cannot reach the seeded ones.
    const last = op.pathParams.slice(-1).filter((p) => p.name !== 'accountId');
    if (op.method === 'DELETE' && namesSeeded(op, req.url, last, (p) => this.pool(op, p))) await this.repair();
  }

  secrets(): Map<string, string> {
    const s = this.s;
    return new Map([
      [this.t.platformToken, '<platform token>'],
      [s.account.admin.token, '<admin token>'],
      [s.agent.token, '<agent token>'],
      [s.bot.token, '<bot token>'],
      [s.victimUser.token, '<outsider token>'],
    ]);
  }
}

// =============================================================================================
// The finance service

interface FinanceState {
  account: FinanceTestAccount;
  other: FinanceTestAccount;
  agent: FinanceTestUser;
  transaction: string;
  bill: string;
  draftInvoice: string;
  issuedInvoice: string;
  contract: string;
  webhook: string;
  notifications: string[];
}

const FINANCE_EVENTS = [
  'transaction.created',
  'transaction.updated',
  'invoice.created',
  'invoice.paid',
  'invoice.overdue',
  'contract.created',
  'contract.cancelled',
];

export class FinanceFuzzTarget implements FuzzTarget {
  readonly name = 'finance service';
  s!: FinanceState;
  private counter = 0;
  reseeds = 0;

  constructor(readonly t: FinanceTestApp) {}

  app() {
    return this.t.app;
  }

  private req(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
    token = this.s.account.admin.accessToken,
  ) {
    return financeCall(this.t.app, { method, url, token, body });
  }

  async seed(): Promise<void> {
    const account = await newFinanceAccount(this.t, { name: `Fuzz ${unique()}` });
    const other = await newFinanceAccount(this.t, { name: `Other ${unique()}` });
    const agent = await addFinanceMember(this.t, account, 'agent');
    this.s = { account, other, agent } as FinanceState;
    await this.createTransaction();
    await this.createBill();
    await this.createDraftInvoice();
    await this.createIssuedInvoice();
    await this.createContract();
    await this.createWebhook();
    await this.createNotifications();
    this.generation++;
  }

  private get token() {
    return this.s.account.admin.accessToken;
  }

  private async createTransaction() {
    this.s.transaction = (await newFinanceTransaction(this.t, this.token)).id;
  }

  private async createBill() {
    this.s.bill = (await newFinanceBill(this.t, this.token)).id;
  }

  private async createDraftInvoice() {
    this.s.draftInvoice = (await newFinanceInvoice(this.t, this.token)).id;
  }

  private async createIssuedInvoice() {
    this.s.issuedInvoice = (await newFinanceInvoice(this.t, this.token, { status: 'issued' })).id;
  }

  private async createContract() {
    this.s.contract = (await newFinanceContract(this.t, this.token)).id;
  }

  private async createWebhook() {
    const res = await this.req('POST', '/api/v1/webhooks', {
      url: 'https://hooks.example.test/finance',
      events: ['invoice.paid'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    this.s.webhook = res.body.data.id;
  }

  private async createNotifications() {
    this.s.notifications = await newFinanceNotifications(this.t, this.s.account.admin, [
      { type: 'system' },
      { type: 'bill_due_soon', read: true },
    ]);
  }

  async repair(): Promise<void> {
    const before = JSON.stringify(this.s);
    await this.restore();
    if (JSON.stringify(this.s) !== before) this.generation++;
  }

  private async restore(): Promise<void> {
    const s = this.s;
    const probe = await this.req('GET', '/api/v1/webhooks');
    if (probe.status !== 200) {
      this.reseeds++;
      await this.seed();
      return;
    }
    const members = await this.req('GET', '/api/accounts/members?limit=100');
    const list = members.body?.data?.items ?? members.body?.data ?? [];
    if (!(Array.isArray(list) && list.some((m: { id: string }) => String(m.id) === String(s.agent.id)))) {
      s.agent = await addFinanceMember(this.t, s.account, 'agent');
    }
    const exists = async (url: string) => (await this.req('GET', url)).status === 200;
    if (!(await exists(`/api/transactions/${s.transaction}`))) await this.createTransaction();
    if (!(await exists(`/api/bills/${s.bill}`))) await this.createBill();
    if (!(await exists(`/api/invoices/${s.draftInvoice}`))) await this.createDraftInvoice();
    if (!(await exists(`/api/invoices/${s.issuedInvoice}`))) await this.createIssuedInvoice();
    if (!(await exists(`/api/contracts/${s.contract}`))) await this.createContract();
    if (!(await exists(`/api/v1/webhooks/${s.webhook}`))) await this.createWebhook();
    const left = await this.t.db
      .selectFrom('notifications')
      .select('id')
      .where('id', 'in', s.notifications.map(Number))
      .execute();
    if (left.length < s.notifications.length) await this.createNotifications();
  }

  private pool(op: Operation, param: Parameter): (string | number)[] {
    const s = this.s;
    if (param.name === 'userId') return [s.agent.id];
    switch (segmentBefore(op, param)) {
      case 'transactions':
        return [s.transaction];
      case 'bills':
        return [s.bill];
      case 'invoices':
        return [s.draftInvoice, s.issuedInvoice];
      case 'contracts':
        return [s.contract];
      case 'webhooks':
        return [s.webhook];
      case 'notifications':
        return s.notifications;
      default:
        return [];
    }
  }

  segment(g: fc.GeneratorValue, op: Operation, param: Parameter): string {
    return pickSegment(g, this.pool(op, param));
  }

  credentials(g: fc.GeneratorValue, op: Operation): Record<string, string> {
    const s = this.s;
    const needs = op.security.length > 0;
    const admin = s.account.admin.accessToken;
    const token = weighted<string | undefined | 'garbage'>(g, [
      [needs ? 80 : 10, admin],
      [needs ? 5 : 1, s.agent.accessToken],
      [needs ? 3 : 1, s.other.admin.accessToken],
      [2, s.account.admin.refreshToken],
      [5, 'garbage'],
      [needs ? 5 : 83, undefined],
    ]);
    if (token === undefined) return {};
    if (token === 'garbage') {
      const value = g(fc.constantFrom, ...garbageTokens(admin));
      return g(
        fc.constantFrom,
        { authorization: `Bearer ${value}` },
        { authorization: value },
        { authorization: `Basic ${value}` },
        { api_access_token: admin },
      );
    }
    return {
      authorization: g(fc.constantFrom, `Bearer ${token}`, `Bearer ${token}`, `bearer ${token}`, `Bearer  ${token} `),
    };
  }

  remoteAddress(): string {
    return randomIp();
  }

  private fresh(prefix: string) {
    return `${prefix}-${++this.counter}`;
  }

  /** Bumped whenever seeded data is rebuilt, so that arbitraries holding old ids are rebuilt too. */
  private generation = 0;

  readonly ctx = {
    version: () => this.generation,
    hints: (name: string | undefined): Json[] | undefined => {
      const s = this.s;
      switch (name) {
        case 'email':
        case 'fromEmail':
          return [s.account.admin.email, s.agent.email, new Fresh(() => `${this.fresh('fuzz')}@example.test`)];
        case 'password':
        case 'currentPassword':
          return [TEST_PASSWORD];
        case 'newPassword':
          return ['another horse battery'];
        case 'fullName':
        case 'companyName':
        case 'name':
          return [new Fresh(() => this.fresh('Fuzz'))];
        case 'refreshToken':
          return [s.account.admin.refreshToken, s.agent.refreshToken];
        case 'accountId':
          return [s.account.accountId, s.other.accountId, Number(s.account.accountId)];
        case 'token':
          return ['0'.repeat(43)];
        case 'url':
          return [
            'https://hooks.example.test/finance',
            'https://erp.example.test/in',
            'https://hooks.example.test/x?y=z',
            'http://127.0.0.1:5432/',
            'http://169.254.169.254/',
            'ftp://example.test/',
          ];
        case 'events':
          return [['invoice.paid'], FINANCE_EVENTS, ['bill.paid'], ['nope']];
        case 'host':
          return ['127.0.0.1', 'smtp.example.test'];
        case 'port':
          return [9, 587];
        case 'currency':
          return ['BRL', 'USD', 'XXX'];
        case 'category':
          return ['sales', 'rent'];
        case 'referenceMonth':
          return ['2025-03', '2025-13', '0000-01'];
        default:
          return undefined;
      }
    },
  };

  /** `{success: false, message, error: {code}}` with one of the service's own codes. */
  isErrorBody(body: unknown): boolean {
    const b = body as { success?: unknown; message?: unknown; error?: { code?: unknown } } | null;
    return (
      !!b &&
      b.success === false &&
      typeof b.message === 'string' &&
      typeof b.error?.code === 'string' &&
      SERVICE_CODE.test(b.error.code)
    );
  }

  async after(op: Operation, req: FuzzRequest, answer: FuzzAnswer): Promise<void> {
    if (op.method === 'GET' || !ok(answer)) return;
    if (op.key === 'POST /api/email/smtp') {
      // A saved SMTP server would be dialled by the test-send, accountant and password-reset routes:
      // point every saved one at a closed local port so that nothing leaves the machine.
      await this.t.db.updateTable('smtp_settings').set({ host: '127.0.0.1', port: 9 }).execute();
    }
    if (/^\/api\/auth\/|^\/api\/accounts\//.test(op.path)) return this.repair();
    if (
      op.method === 'DELETE' &&
      (op.pathParams.length === 0 || namesSeeded(op, req.url, op.pathParams, (p) => this.pool(op, p)))
    )
      await this.repair();
  }

  secrets(): Map<string, string> {
    const s = this.s;
    return new Map([
      [s.account.admin.accessToken, '<admin token>'],
      [s.account.admin.refreshToken, '<admin refresh token>'],
      [s.agent.accessToken, '<agent token>'],
      [s.agent.refreshToken, '<agent refresh token>'],
      [s.other.admin.accessToken, '<other account admin token>'],
    ]);
  }
}
