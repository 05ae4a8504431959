import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { vapidKeysProblem } from './push.config.js';
import { loadVapidKeys, VAPID_KEY_FILE } from './vapid.js';

const dirs: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-vapid-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('loadVapidKeys', () => {
  it('generates a pair at first start into DATA_DIR (mode 0600) and keeps it', () => {
    const dir = tmp();
    const keys = loadVapidKeys(dir, null);
    expect(vapidKeysProblem(keys)).toBeNull();
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
    const file = path.join(dir, VAPID_KEY_FILE);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(keys.privateKey);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadVapidKeys(dir, null)).toEqual(keys);
    expect(loadVapidKeys(tmp(), null).publicKey).not.toBe(keys.publicKey);
  });

  it('uses the configured pair and writes nothing; refuses a file that holds no key', () => {
    const dir = tmp();
    const configured = loadVapidKeys(tmp(), null);
    expect(loadVapidKeys(dir, configured)).toBe(configured);
    expect(fs.existsSync(path.join(dir, VAPID_KEY_FILE))).toBe(false);
    fs.writeFileSync(path.join(dir, VAPID_KEY_FILE), 'c2hvcnQ\n');
    expect(() => loadVapidKeys(dir, null)).toThrow(/does not hold a P-256 private key/);
  });
});
