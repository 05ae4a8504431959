import { createPrivateKey } from 'node:crypto';
import { fromBase64Url, publicKeyOf } from './web-push.crypto.js';

/**
 * Push settings as the environment gives them, checked when configuration is loaded (config.ts)
 * so that a wrong key or credentials file stops the start with a message rather than failing
 * every push later. Only node:crypto here: configuration loads before anything else.
 */

/** A VAPID key pair, base64url (the private scalar, 32 bytes; the uncompressed public point, 65 bytes). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export const DEFAULT_FCM_BASE_URL = 'https://fcm.googleapis.com';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** Push settings (config.ts `push`). */
export interface PushSettings {
  /** A key pair shared by instances (VAPID_*); null: generated once into DATA_DIR/vapid-private.key. */
  vapid: VapidKeys | null;
  /** The contact in every VAPID JWT (`sub`): a mailto: or https: URL. */
  vapidSubject: string;
  /** The operator's Firebase service account; null: FCM subscriptions are not sent to. */
  firebase: ServiceAccount | null;
  fcmBaseUrl: string;
}

/** Why a configured pair is unusable, or null. */
export function vapidKeysProblem(keys: VapidKeys): string | null {
  const privateKey = fromBase64Url(keys.privateKey);
  let derived: Buffer;
  try {
    derived = publicKeyOf(privateKey);
  } catch {
    return 'VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes, base64url (`node dist/cli.js push:vapid-keys` prints a pair)';
  }
  if (!derived.equals(fromBase64Url(keys.publicKey)))
    return 'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY (65 bytes, base64url)';
  return null;
}

/** The fields of a Google service account key file (JSON) that push uses. */
export interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  /** PKCS#8 PEM. */
  privateKey: string;
  privateKeyId: string | null;
  /** Where access tokens are obtained (the file's `token_uri`). */
  tokenUri: string;
}

/** Reads a service account key file's JSON; throws an Error saying what is missing or wrong. */
export function parseServiceAccount(text: string, projectId?: string): ServiceAccount {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('is not JSON (expected a Firebase service account key file)');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error('is not a JSON object (expected a Firebase service account key file)');
  const field = (name: string) => (typeof json[name] === 'string' && json[name] !== '' ? (json[name] as string) : null);
  const missing = ['client_email', 'private_key', ...(projectId ? [] : ['project_id'])].filter((f) => !field(f));
  if (missing.length > 0) throw new Error(`lacks ${missing.join(', ')} (expected a Firebase service account key file)`);
  try {
    createPrivateKey(field('private_key')!);
  } catch {
    throw new Error('has a private_key that is not a PEM private key');
  }
  const tokenUri = field('token_uri') ?? DEFAULT_TOKEN_URI;
  if (!/^https?:\/\//.test(tokenUri)) throw new Error('has a token_uri that is not an http(s) URL');
  return {
    projectId: projectId ?? field('project_id')!,
    clientEmail: field('client_email')!,
    privateKey: field('private_key')!,
    privateKeyId: field('private_key_id'),
    tokenUri,
  };
}
