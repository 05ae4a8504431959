import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { DEFAULT_FCM_BASE_URL, type ServiceAccount } from './push.config.js';
import { outcomeOfRequestError, type PushHttp } from './push.http.js';
import { outcomeOf, retryAfterMs, type PushMessage, type PushOptions, type PushOutcome } from './push.message.js';

/**
 * Firebase Cloud Messaging, HTTP v1: an OAuth 2 access token obtained with a JWT bearer grant
 * (RFC 7523) signed RS256 by the operator's service account, kept until shortly before it expires,
 * then `POST {base}/v1/projects/{project}/messages:send` per device token.
 */

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** Lifetime asked of an assertion (Google's maximum is one hour). */
const ASSERTION_LIFETIME_S = 3600;
/** A token is renewed this long before it expires. */
const RENEW_BEFORE_MS = 5 * 60_000;

/** Thrown inside the client when no access token could be had; carries what the job should do. */
class TokenUnavailable extends Error {
  constructor(readonly outcome: PushOutcome) {
    super('no FCM access token');
  }
}

export class FcmClient {
  private readonly key: KeyObject;
  private token: { value: string; renewAt: number } | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly http: PushHttp,
    private readonly account: ServiceAccount,
    private readonly baseUrl: string = DEFAULT_FCM_BASE_URL,
    private readonly clock: () => number = Date.now,
  ) {
    this.key = createPrivateKey(account.privateKey);
  }

  async send(token: string, message: PushMessage, options: PushOptions): Promise<PushOutcome> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(this.account.projectId)}/messages:send`;
    let bearer: string;
    try {
      bearer = await this.accessToken();
    } catch (err) {
      if (err instanceof TokenUnavailable) return err.outcome;
      throw err;
    }
    try {
      const answer = await this.http.post(
        url,
        { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
        JSON.stringify({ message: this.messageOf(token, message, options) }),
      );
      const error = `FCM answered ${answer.status}${errorText(answer.text)}`;
      if (answer.status === 401) {
        // The token was refused (revoked, or the key was rotated): the next attempt fetches another.
        if (this.token?.value === bearer) this.token = null;
        return { result: 'retry', status: 401, error };
      }
      return outcomeOf(answer.status, error, retryAfterMs(answer.headers['retry-after'], this.clock()));
    } catch (err) {
      return outcomeOfRequestError(err, this.http.timeoutMs);
    }
  }

  /** The HTTP v1 message: the notification for the system tray, the data for the app, per-platform expiry and priority. */
  private messageOf(token: string, message: PushMessage, options: PushOptions) {
    const ttl = Math.max(0, Math.floor(options.ttlSeconds));
    const high = options.urgency === 'high';
    const data = {
      ...(message.data ?? {}),
      ...(message.url ? { url: message.url } : {}),
      ...(message.tag ? { tag: message.tag } : {}),
    };
    return {
      token,
      notification: { title: message.title, body: message.body },
      ...(Object.keys(data).length > 0 ? { data } : {}),
      android: {
        ttl: `${ttl}s`,
        priority: high ? 'HIGH' : 'NORMAL',
        ...(message.tag ? { notification: { tag: message.tag } } : {}),
      },
      apns: {
        headers: {
          'apns-expiration': String(ttl === 0 ? 0 : Math.floor(this.clock() / 1000) + ttl),
          'apns-priority': high ? '10' : '5',
          ...(message.tag ? { 'apns-collapse-id': message.tag.slice(0, 64) } : {}),
        },
      },
    };
  }

  /** The cached access token, or a new one (one request at a time however many sends wait for it). */
  private accessToken(): Promise<string> {
    if (this.token && this.clock() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.pending ??= this.fetchToken().finally(() => (this.pending = null));
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const now = Math.floor(this.clock() / 1000);
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        ...(this.account.privateKeyId ? { kid: this.account.privateKeyId } : {}),
      })
      .setIssuer(this.account.clientEmail)
      .setAudience(this.account.tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + ASSERTION_LIFETIME_S)
      .sign(this.key);
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
    let answer;
    try {
      answer = await this.http.post(
        this.account.tokenUri,
        { 'content-type': 'application/x-www-form-urlencoded' },
        form.toString(),
      );
    } catch (err) {
      throw new TokenUnavailable(outcomeOfRequestError(err, this.http.timeoutMs, 'access token request failed: '));
    }
    const error = `access token refused: ${answer.status}${errorText(answer.text)}`;
    if (answer.status !== 200) {
      // A refused grant (a revoked key, a wrong clock) is the operator's to fix: no retry helps.
      const outcome = outcomeOf(answer.status, error, retryAfterMs(answer.headers['retry-after'], this.clock()));
      throw new TokenUnavailable(
        outcome.result === 'retry' ? outcome : { result: 'failed', status: answer.status, error },
      );
    }
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(answer.text);
    } catch {
      body = {};
    }
    if (typeof body.access_token !== 'string' || body.access_token === '')
      throw new TokenUnavailable({
        result: 'retry',
        status: 200,
        error: 'the token endpoint answered without an access_token',
      });
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    this.token = { value: body.access_token, renewAt: this.clock() + Math.max(0, lifetimeMs - RENEW_BEFORE_MS) };
    return this.token.value;
  }
}

/** `: <status>: <message>` of a Google error body, or the start of any other body. */
function errorText(text: string): string {
  if (!text) return '';
  try {
    const json = JSON.parse(text);
    const e = json?.error;
    if (e && typeof e === 'object') return `: ${[e.status, e.message].filter(Boolean).join(': ')}`;
    if (typeof e === 'string') return `: ${[e, json.error_description].filter(Boolean).join(': ')}`;
  } catch {
    // not JSON
  }
  return `: ${text.slice(0, 300)}`;
}
