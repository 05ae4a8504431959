import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAi } from '../../../../test/helpers/fake-openai.js';
import { HttpError } from '../../../core/http/errors.js';
import { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import { completionsUrl, OpenAiClient } from './openai.client.js';

let fake: FakeOpenAi;

beforeAll(async () => {
  fake = await new FakeOpenAi().start();
});
afterAll(async () => {
  await fake.stop();
});

/** A guard whose URL check lets every name through, so only the connection-time check decides. */
class ResolvedAddressOnly extends DestinationGuard {
  override checkUrl(raw: string): URL {
    return new URL(raw);
  }
}

const ask = { apiKey: 'sk-unit', model: 'm', messages: [{ role: 'user' as const, content: 'Hi' }] };

describe('OpenAiClient', () => {
  it('posts to {base_url}/chat/completions, keeping a query string', () => {
    expect(completionsUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/chat/completions');
    expect(completionsUrl('https://gw.example.test/openai/deployments/d?api-version=2024-06-01')).toBe(
      'https://gw.example.test/openai/deployments/d/chat/completions?api-version=2024-06-01',
    );
    expect(completionsUrl('http://ollama.example.test:11434')).toBe(
      'http://ollama.example.test:11434/chat/completions',
    );
  });

  it('checks the resolved address at connection time: a name that resolves to loopback is refused', async () => {
    const base = `http://localhost:${fake.port}/v1`;
    const calls = fake.requests.length;
    const strict = new OpenAiClient({ guard: new ResolvedAddressOnly(), timeoutMs: 5_000 });
    const err = await strict.complete({ ...ask, baseUrl: base }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ statusCode: 422, code: 'destination_refused' });
    expect(fake.requests.length).toBe(calls);

    // Allowed by address, the same name goes through.
    const allowing = new OpenAiClient({ guard: new ResolvedAddressOnly(['127.0.0.1', '::1']), timeoutMs: 5_000 });
    fake.reply = 'Hello back';
    expect(await allowing.complete({ ...ask, baseUrl: base })).toBe('Hello back');
    expect(fake.last.headers.authorization).toBe('Bearer sk-unit');
  });

  it('refuses an answer larger than 1 MiB with 502', async () => {
    const client = new OpenAiClient({ guard: new DestinationGuard(['127.0.0.1']), timeoutMs: 5_000 });
    fake.script.push({ status: 200, body: fake.completion({}, 'x'.repeat(1024 * 1024 + 10)) });
    const err = await client.complete({ ...ask, baseUrl: fake.baseUrl }).catch((e: unknown) => e);
    expect(err).toMatchObject({ statusCode: 502, code: 'upstream_invalid_response' });
  });
});
