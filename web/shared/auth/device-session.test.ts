import { describe, expect, it } from 'vitest';
import { SessionKeeper, sessionFromHeaders, sessionHeaders, type KeyValueStorage } from './device-session.js';

class MemoryStorage implements KeyValueStorage {
  readonly values = new Map<string, string>();
  getItem = (key: string) => this.values.get(key) ?? null;
  setItem = (key: string, value: string) => void this.values.set(key, value);
  removeItem = (key: string) => void this.values.delete(key);
}

const NOW = Date.UTC(2026, 0, 10) / 1000;

describe('the per-device session', () => {
  it('is read from the headers of a sign-in answer, and sent back as three headers', () => {
    const headers = new Headers({
      'access-token': 'tok',
      client: 'cli',
      uid: 'ana@example.test',
      expiry: '1800000000',
    });
    const session = sessionFromHeaders(headers);
    expect(session).toEqual({ accessToken: 'tok', client: 'cli', uid: 'ana@example.test', expiry: 1800000000 });
    expect(sessionHeaders(session!)).toEqual({ 'access-token': 'tok', client: 'cli', uid: 'ana@example.test' });
    expect(sessionFromHeaders(new Headers({ 'access-token': 'tok', client: 'cli' }))).toBeNull();
  });

  it('is kept across reloads until it expires, and nothing else is kept with it', () => {
    const storage = new MemoryStorage();
    let now = NOW * 1000;
    const keeper = new SessionKeeper(storage, 'k', () => now);
    const session = { accessToken: 't', client: 'c', uid: 'u@example.test', expiry: NOW + 60 };
    keeper.write({ ...session, extra: 'the permanent token' } as typeof session);
    expect(storage.getItem('k')).not.toContain('permanent');
    expect(keeper.read()).toEqual(session);
    now = (NOW + 60) * 1000;
    expect(keeper.read()).toBeNull();
    keeper.clear();
    expect(storage.values.size).toBe(0);
  });

  it('reads anything that is not a session as none', () => {
    const storage = new MemoryStorage();
    const keeper = new SessionKeeper(storage, 'k', () => NOW * 1000);
    for (const value of [
      '{',
      'null',
      '"text"',
      '{"accessToken":"t","client":"c"}',
      '{"accessToken":1,"client":"c","uid":"u","expiry":2}',
    ]) {
      storage.setItem('k', value);
      expect(keeper.read(), value).toBeNull();
    }
  });
});
