import { randomBytes } from 'node:crypto';
import type * as Argon2 from '@node-rs/argon2';

// OWASP's argon2id recommendation: m=19 MiB, t=2, p=1.
const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

// The native module is loaded with the first password: most requests use tokens, and a process
// that never signs anyone in does not map it.
let argon2: Promise<typeof Argon2> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

export async function hashPassword(password: string): Promise<string> {
  return (await loadArgon2()).hash(password, OPTIONS);
}

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) return false;
  try {
    return await (await loadArgon2()).verify(stored, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/**
 * Like verifyPassword, but without a stored hash (unknown user) it still verifies against a
 * throwaway hash, so "no such user" takes as long as "wrong password" and timing reveals nothing.
 */
export async function verifyPasswordEvenIfMissing(
  stored: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (stored) return verifyPassword(stored, password);
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}
