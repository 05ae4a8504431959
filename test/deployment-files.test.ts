import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig } from '../src/config.js';

/**
 * The files a container deployment reads (no Docker engine runs here, so their content is checked:
 * the health check itself runs as a script against a real server in server.test.ts).
 */
const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** `NAME: value` lines of the ponte service's environment in compose.yaml. */
function composeEnvironment(): Record<string, string> {
  const text = read('compose.yaml');
  const service = text.slice(text.indexOf('\n  ponte:'));
  const block = service.slice(service.indexOf('environment:'), service.indexOf('\n    ports:'));
  return Object.fromEntries(
    [...block.matchAll(/^ {6}([A-Z_]+): (.*)$/gm)].map((m) => [m[1], m[2].trim()] as [string, string]),
  );
}

describe('deployment files', () => {
  it('.env.example names only real settings (and the PostgreSQL password), each once', () => {
    const names = [...read('.env.example').matchAll(/^([A-Z_]+)=/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(5);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect([...CONFIG_VARIABLES, 'POSTGRES_PASSWORD'], name).toContain(name);
    for (const name of ['POSTGRES_PASSWORD', 'FINANCE_JWT_SECRET', 'FINANCE_ENCRYPTION_KEY', 'PLATFORM_TOKEN'])
      expect(names).toContain(name);
  });

  it('compose.yaml sets only real settings and passes the database password apart from the URLs', () => {
    const env = composeEnvironment();
    for (const name of Object.keys(env)) expect(CONFIG_VARIABLES, name).toContain(name);
    expect(env.CHAT_DATABASE_URL).toBe('postgres://ponte@postgres:5432/ponte_chat');
    expect(env.CHAT_DATABASE_PASSWORD).toBe('${POSTGRES_PASSWORD}');
    expect(env.FINANCE_DATABASE_PASSWORD).toBe('${POSTGRES_PASSWORD}');
    // What the container then reads, with a password full of URL delimiters.
    const config = loadConfig({
      CHAT_DATABASE_URL: env.CHAT_DATABASE_URL,
      CHAT_DATABASE_PASSWORD: 'p@ss/w:rd',
      FINANCE_DATABASE_URL: env.FINANCE_DATABASE_URL,
      FINANCE_DATABASE_PASSWORD: 'p@ss/w:rd',
    });
    expect(decodeURIComponent(new URL(config.chat.databaseUrl).password)).toBe('p@ss/w:rd');
    expect(new URL(config.finance.databaseUrl).hostname).toBe('postgres');
  });

  it('the image runs Node 24 LTS and checks both services with the health check script', () => {
    const dockerfile = read('Dockerfile');
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual([
      'node:24-bookworm-slim',
      'node:24-bookworm-slim',
    ]);
    expect(dockerfile).toMatch(/^ {2}CMD \["node", "dist\/healthcheck\.js"\]$/m);
    expect(fs.existsSync(path.join(root, 'src/healthcheck.ts'))).toBe(true);
  });
});
