import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox } from './encryption.js';
import { loadOrCreateSecret } from './secrets.js';

const dirs: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-secret-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('loadOrCreateSecret', () => {
  it('prefers the environment value and writes nothing', () => {
    const dir = tmp();
    expect(loadOrCreateSecret(dir, 'k.key', 'from-the-environment')).toBe('from-the-environment');
    expect(fs.existsSync(path.join(dir, 'k.key'))).toBe(false);
  });

  it('generates a secret once, keeps it with mode 0600, and returns the same one later', () => {
    const dir = path.join(tmp(), 'nested');
    const first = loadOrCreateSecret(dir, 'k.key');
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fs.statSync(path.join(dir, 'k.key')).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecret(dir, 'k.key')).toBe(first);
    expect(loadOrCreateSecret(dir, 'other.key')).not.toBe(first);
  });

  it('makes a new secret with the given generator, and reads an existing one without calling it', () => {
    const dir = tmp();
    let calls = 0;
    const generate = () => `generated-${++calls}`;
    expect(loadOrCreateSecret(dir, 'k.key', null, generate)).toBe('generated-1');
    expect(loadOrCreateSecret(dir, 'k.key', null, generate)).toBe('generated-1');
    expect(calls).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'k.key'), 'utf8')).toBe('generated-1\n');
  });
});

describe('createSecretBox', () => {
  const box = createSecretBox('a-secret-of-enough-length', 'tests');

  it('seals and opens; each seal differs; the plain text does not appear', () => {
    const a = box.seal('p@ssw0rd', 'row:1');
    const b = box.seal('p@ssw0rd', 'row:1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('p@ssw0rd');
    expect(box.open(a, 'row:1')).toBe('p@ssw0rd');
  });

  it('refuses another context, another key or purpose, and altered values', () => {
    const sealed = box.seal('p@ssw0rd', 'row:1');
    expect(() => box.open(sealed, 'row:2')).toThrow();
    expect(() => createSecretBox('another-secret-of-length', 'tests').open(sealed, 'row:1')).toThrow();
    expect(() => createSecretBox('a-secret-of-enough-length', 'other').open(sealed, 'row:1')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'), 'row:1')).toThrow();
    expect(() => box.open('plain text', 'row:1')).toThrow();
  });
});
