/**
 * The per-device sign-in session of the conversation service (devise_token_auth's headers, as
 * Chatwoot's dashboard keeps them): `POST /auth/sign_in` answers `access-token`, `client`, `uid`
 * and `expiry`; every later request sends the first three back. The session ends at sign-out or
 * expiry, and a new password ends them all. The user's permanent `access_token` (in the profile)
 * is never kept: only this session is, so signing out of a device is final.
 */
export interface DeviceSession {
  accessToken: string;
  client: string;
  uid: string;
  /** When the server lets the session lapse, in UNIX seconds. */
  expiry: number;
}

/** The session a sign-in answer opened (from its headers), or null when they are missing. */
export function sessionFromHeaders(headers: Headers): DeviceSession | null {
  const accessToken = headers.get('access-token');
  const client = headers.get('client');
  const uid = headers.get('uid');
  const expiry = Number(headers.get('expiry'));
  if (!accessToken || !client || !uid || !Number.isFinite(expiry)) return null;
  return { accessToken, client, uid, expiry };
}

/** The headers a request of the session carries. */
export function sessionHeaders(session: DeviceSession): Record<string, string> {
  return { 'access-token': session.accessToken, client: session.client, uid: session.uid };
}

const isSession = (value: unknown): value is DeviceSession => {
  const v = value as Partial<DeviceSession> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.accessToken === 'string' &&
    typeof v.client === 'string' &&
    typeof v.uid === 'string' &&
    typeof v.expiry === 'number'
  );
};

/** What the keeper needs of a storage (the browser's localStorage has it). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Where the session is kept across reloads (localStorage in the browser, shared by the tabs of
 * the origin). A session past its expiry, or a value that is not a session, reads as none.
 */
export class SessionKeeper {
  constructor(
    private readonly storage: KeyValueStorage,
    readonly key: string,
    private readonly now: () => number = () => Date.now(),
  ) {}

  read(): DeviceSession | null {
    let value: unknown;
    try {
      value = JSON.parse(this.storage.getItem(this.key) ?? 'null');
    } catch {
      return null;
    }
    if (!isSession(value) || value.expiry * 1000 <= this.now()) return null;
    return { accessToken: value.accessToken, client: value.client, uid: value.uid, expiry: value.expiry };
  }

  write(session: DeviceSession): void {
    const { accessToken, client, uid, expiry } = session;
    this.storage.setItem(this.key, JSON.stringify({ accessToken, client, uid, expiry }));
  }

  clear(): void {
    this.storage.removeItem(this.key);
  }
}
