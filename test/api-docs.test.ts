import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHttpUrl, isTimeZone } from '../src/core/http/validation.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

// The docs pages as a newcomer reads them: an introduction, and for every operation a description
// saying who may call it and examples that fit the operation's own schemas (so they cannot drift).

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

interface Media {
  schema?: object;
  example?: unknown;
}
interface Operation {
  summary?: string;
  description?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  info: { title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

function operations(doc: Document): [string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]): [string, Operation] => [`${method.toUpperCase()} ${path}`, op]),
  );
}

/** Every example that does not fit its schema, as "operation (where): the first error". */
function misfits(doc: Document): string[] {
  const ajv = addFormats(new Ajv({ strict: false, allErrors: false, validateFormats: true }));
  ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
  ajv.addFormat('time-zone', { type: 'string', validate: isTimeZone });
  const found: string[] = [];
  const check = (key: string, where: string, media: Media | undefined) => {
    if (!media?.schema) return;
    if (media.example === undefined) return void found.push(`${key} (${where}): no example`);
    const validate = ajv.compile(media.schema);
    if (!validate(media.example)) {
      const [error] = validate.errors ?? [];
      found.push(`${key} (${where}): ${error?.instancePath} ${error?.message}`);
    }
  };
  for (const [key, op] of operations(doc)) {
    check(key, 'body', op.requestBody?.content?.['application/json']);
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (/^2\d\d$/.test(status)) check(key, status, response.content?.['application/json']);
    }
  }
  return found;
}

let chat: ChatTestApp;
let finance: FinanceTestApp;
const docOf = async (app: ChatTestApp['app']) =>
  JSON.parse((await app.inject({ url: '/openapi.json' })).body) as Document;

beforeAll(async () => {
  chat = await buildChatTestApp();
  finance = await buildFinanceTestApp();
});
afterAll(async () => {
  await chat.close();
  await finance.close();
});

describe.each([
  ['conversation', () => chat.app, 'Ponte conversation service', 'api_access_token'],
  ['finance', () => finance.app, 'Ponte finance service', 'Authorization: Bearer'],
])('the docs of the %s service', (_name, app, title, tokenWords) => {
  it('name Ponte and open with a getting-started introduction about tokens and a first account', async () => {
    const doc = await docOf(app());
    expect(doc.info.title).toBe(title);
    expect(doc.info.description).toContain('## Getting started');
    expect(doc.info.description).toContain(tokenWords);
    const page = await app().inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<title>${title}: API</title>`);
  });

  it('describe every operation, with who may call it', async () => {
    const doc = await docOf(app());
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(30);
    const undescribed = ops.filter(([, op]) => !op.summary || !/\*\*Access:\*\* \S/.test(op.description ?? ''));
    expect(undescribed.map(([key]) => key)).toEqual([]);
  });

  it('give every JSON body and 2xx JSON answer an example that fits its schema', async () => {
    expect(misfits(await docOf(app()))).toEqual([]);
  });
});

describe('the access sentences', () => {
  it('follow the route config: administrators only, bots, platform, no token', async () => {
    const doc = await docOf(chat.app);
    const op = (method: string, path: string) => doc.paths[path][method].description ?? '';
    expect(op('post', '/api/v1/accounts/{accountId}/webhooks')).toContain('Administrators of the account.');
    expect(op('post', '/api/v1/accounts/{accountId}/conversations/{id}/messages')).toContain('or an agent bot');
    expect(op('post', '/platform/api/v1/accounts')).toContain('The platform app token.');
    expect(op('get', '/api/v1/profile')).toContain("A user's access token.");
    const fin = await docOf(finance.app);
    expect(fin.paths['/api/auth/login'].post.description).toContain('No token');
  });
});
