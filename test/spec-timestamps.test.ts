import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from './helpers/test-app.js';

/**
 * The spec's convention: "Timestamps are ISO 8601 strings unless a field is stated to be UNIX
 * seconds". This walks the resource tables of the spec (docs/spec/conversation-service.md, the
 * repository's copy of the spec) and, for every timestamp field it finds there,
 * checks the type the OpenAPI document gives that field in the answers that show the resource:
 * a string for ISO 8601 (and for a date), an integer where the spec says UNIX seconds. A resource
 * with a timestamp that has no answer listed in SHOWN fails, so a new one cannot be missed.
 */

type Kind = 'iso' | 'unix' | 'date';

interface SpecField {
  resource: string;
  field: string;
  kind: Kind;
}

const SPEC = fs.readFileSync(new URL('../docs/spec/conversation-service.md', import.meta.url), 'utf8');

/** The kind a field's words give it: UNIX seconds, a date, else the convention's ISO 8601. */
function kindOf(words: string): Kind {
  if (/UNIX seconds/i.test(words)) return 'unix';
  if (/\bdate\b/.test(words) && /YYYY-MM-DD/.test(words)) return 'date';
  return 'iso';
}

/** Every timestamp field of the spec's "Resources and their fields", by resource (and sub-resource). */
function specTimestamps(): SpecField[] {
  const start = SPEC.indexOf('## Resources and their fields');
  const section = SPEC.slice(start, SPEC.indexOf('\n## ', start + 1));
  const out: SpecField[] = [];
  for (const block of section.split(/^### /m).slice(1)) {
    const [heading, ...lines] = block.split('\n');
    for (const line of lines) {
      if (line.startsWith('|')) {
        const [field, type, notes] = line
          .split('|')
          .slice(1)
          .map((c) => c.trim());
        if (!field || field === 'Field' || /^-+$/.test(field)) continue;
        const words = `${type} ${notes}`;
        if (/timestamp|UNIX seconds|YYYY-MM-DD/.test(words))
          out.push({ resource: heading, field, kind: kindOf(words) });
        continue;
      }
      // Prose: "Name (qualifier): fields..." names a sub-resource; otherwise the fields are the heading's.
      const named = /^([A-Z][A-Za-z ]*?)(?: \([^)]*\))?: /.exec(line);
      const resource = named ? `${heading}/${named[1]}` : heading;
      for (const clause of line.split(/[,.;]/)) {
        const match = /\b([a-z_]+_at)\b/.exec(clause);
        if (match) out.push({ resource, field: match[1], kind: kindOf(clause) });
      }
    }
  }
  return out;
}

const A = '/api/v1/accounts/{accountId}';
const PUB = '/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}';

/** The answers that show each resource: an operation, and where the resource sits in its 200 body. */
const SHOWN: Record<string, [string, string[]][]> = {
  Conversation: [
    [`GET ${A}/conversations/{id}`, []],
    // contact_last_seen_at is the public interface's.
    [`POST ${PUB}/conversations`, []],
  ],
  Message: [[`POST ${A}/conversations/{id}/messages`, []]],
  'Pipeline and stage/Pipeline': [[`GET ${A}/pipelines/{id}`, ['data']]],
  'Pipeline card (deal)': [
    [`GET ${A}/pipeline_cards/{id}`, ['data']],
    [`GET ${A}/pipeline_cards`, ['data', '*']],
  ],
  'Pipeline card (deal)/Timeline entry': [[`GET ${A}/pipeline/cards/{id}/timeline`, ['data', '*']]],
  'SLA policy': [
    [`GET ${A}/sla_policies/{id}`, []],
    [`GET ${A}/sla_policies`, ['data', '*']],
  ],
  Campaign: [[`GET ${A}/campaigns/{id}`, []]],
  'Platform account, user, account user/Account': [
    ['POST /platform/api/v1/accounts', []],
    ['GET /platform/api/v1/accounts/{account_id}', []],
  ],
  'Platform account, user, account user/User': [
    ['POST /platform/api/v1/users', []],
    ['GET /platform/api/v1/users/{id}', []],
  ],
};

type Schema = Record<string, any>;
let t: ChatTestApp;
let doc: { paths: Record<string, Record<string, Schema>> };

beforeAll(async () => {
  t = await buildChatTestApp();
  doc = JSON.parse((await t.app.inject({ url: '/openapi.json' })).body);
});
afterAll(async () => {
  await t.close();
});

/** The object schema at `where` in an operation's 200 answer. */
function shownSchema(operation: string, where: string[]): Schema {
  const [method, path] = operation.split(' ');
  const op = doc.paths[path]?.[method.toLowerCase()];
  expect(op, `${operation} is not in the OpenAPI document`).toBeDefined();
  let schema: Schema = op!.responses['200'].content['application/json'].schema;
  for (const step of where) schema = step === '*' ? schema.items : schema.properties[step];
  return schema;
}

/** The JSON types a property allows, null aside. */
const typesOf = (schema: Schema): string[] =>
  schema.anyOf
    ? schema.anyOf.flatMap(typesOf)
    : [schema.type].flat().filter((type: string | undefined) => type !== undefined && type !== 'null');

describe("the spec's timestamp fields", () => {
  it('are found in every resource table that has them', () => {
    const fields = specTimestamps();
    expect(fields).toEqual(
      expect.arrayContaining([
        { resource: 'Conversation', field: 'created_at', kind: 'iso' },
        { resource: 'Message', field: 'created_at', kind: 'unix' },
        { resource: 'SLA policy', field: 'created_at', kind: 'iso' },
        { resource: 'Campaign', field: 'scheduled_at', kind: 'iso' },
        { resource: 'Pipeline card (deal)', field: 'expected_close_date', kind: 'date' },
      ]),
    );
    expect([...new Set(fields.map((f) => f.resource))].sort()).toEqual(Object.keys(SHOWN).sort());
  });

  it('have the OpenAPI type the spec gives them: a string for ISO 8601 and dates, an integer for UNIX seconds', () => {
    const problems: string[] = [];
    for (const { resource, field, kind } of specTimestamps()) {
      const showing = SHOWN[resource].map(([op, where]) => [op, shownSchema(op, where)] as const);
      const withField = showing.filter(([, schema]) => schema.properties?.[field]);
      if (withField.length === 0) problems.push(`${resource}.${field}: in none of ${SHOWN[resource].map(([o]) => o)}`);
      for (const [op, schema] of withField) {
        const types = typesOf(schema.properties[field]);
        const expected = kind === 'unix' ? ['integer'] : ['string'];
        if (JSON.stringify(types) !== JSON.stringify(expected))
          problems.push(`${resource}.${field} (${kind}) in ${op}: ${types.join('|')}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
