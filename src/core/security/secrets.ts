import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * A long-lived secret (a signing or encryption key): the value given in the environment when there
 * is one; otherwise the one stored in `dataDir/file`, created on first use (by `generate`: 32 random
 * bytes, base64url, by default; mode 0600). Several processes starting at once agree on one value
 * (the file is created exclusively; a loser reads the winner's). Instances that do not share
 * DATA_DIR must be given the secret explicitly.
 */
export function loadOrCreateSecret(
  dataDir: string,
  file: string,
  fromEnv?: string | null,
  generate: () => string = () => randomBytes(32).toString('base64url'),
): string {
  if (fromEnv !== undefined && fromEnv !== null && fromEnv !== '') return fromEnv;
  const full = path.join(dataDir, file);
  const existing = readSecret(full);
  if (existing !== null) return existing;
  fs.mkdirSync(dataDir, { recursive: true });
  const value = generate();
  try {
    fs.writeFileSync(full, `${value}\n`, { flag: 'wx', mode: 0o600 });
    return value;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  // Another process created it between our read and our write: use theirs (retry briefly while it writes).
  for (let i = 0; i < 50; i++) {
    const value = readSecret(full);
    if (value !== null) return value;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
  throw new Error(`secret file ${full} exists but is empty`);
}

function readSecret(full: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(full, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const value = text.trim();
  return value === '' ? null : value;
}
