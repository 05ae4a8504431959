import {
  createDecipheriv,
  createECDH,
  createHmac,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, importJWK, jwtVerify, type JWTPayload } from 'jose';

/**
 * Real push services for tests, on 127.0.0.1: a Web Push service that checks each request as a
 * browser vendor's does (the VAPID JWT's ES256 signature, audience and expiry against the key in
 * `Authorization: vapid t=..., k=...`, the key the page subscribed with) and then decrypts the
 * RFC 8291 body with the subscription's private key, as the browser would; and an FCM HTTP v1
 * service with its OAuth token endpoint, which verifies the service account's RS256 assertion.
 * Both answer 2xx by default; `script` sets the answers of the next requests in order.
 */

export interface ScriptedAnswer {
  status: number;
  retryAfter?: string;
  body?: string;
}

interface Server {
  server: http.Server;
  origin: string;
}

async function listen(handler: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } satisfies Server;
}

async function close({ server }: Server) {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function answer(res: http.ServerResponse, a: ScriptedAnswer) {
  res.writeHead(a.status, {
    'content-type': 'application/json',
    ...(a.retryAfter !== undefined ? { 'retry-after': a.retryAfter } : {}),
  });
  res.end(a.body ?? '');
}

/** Polls `check` until it holds (20 s at most). */
async function until(check: () => boolean, what: string) {
  for (const deadline = Date.now() + 20_000; !check();) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const hmac = (key: Buffer, ...data: Buffer[]) => createHmac('sha256', key).update(Buffer.concat(data)).digest();

/**
 * The browser's side of RFC 8291 (section 3.4, step by step with HMAC-SHA-256), then RFC 8188's
 * record: returns the plaintext, or throws on anything malformed.
 */
export function decryptWebPush(body: Buffer, uaPrivate: Buffer, auth: Buffer): Buffer {
  const ua = createECDH('prime256v1');
  ua.setPrivateKey(uaPrivate);
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65 || ciphertext.length > recordSize) throw new Error('malformed aes128gcm header');
  const ecdhSecret = ua.computeSecret(asPublic);
  const prkKey = hmac(auth, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic]);
  const ikm = hmac(prkKey, keyInfo, Buffer.from([1]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const record = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = record.length - 1;
  while (end >= 0 && record[end] === 0) end--;
  if (record[end] !== 2) throw new Error('the record does not end with the last-record delimiter');
  return record.subarray(0, end);
}

export interface ReceivedPush {
  subscription: string;
  headers: http.IncomingHttpHeaders;
  /** The VAPID JWT's claims, verified. */
  claims: JWTPayload;
  plaintext: string;
  json: any;
  bodyLength: number;
}

export class WebPushReceiver {
  readonly received: ReceivedPush[] = [];
  /** Requests refused for a bad signature, key or encryption (with why): tests expect none. */
  readonly rejected: string[] = [];
  script: ScriptedAnswer[] = [];
  /** Answers nothing (the sender's timeout is tested). */
  hang = false;
  /** The service's clock (tests that move the sender's clock move this one too). */
  clock: () => number = Date.now;
  private readonly subscriptions = new Map<string, { privateKey: Buffer; auth: Buffer; serverKey: string }>();
  private http!: Server;

  async start(): Promise<this> {
    this.http = await listen((req, body, res) => void this.handle(req, body, res));
    return this;
  }

  get origin(): string {
    return this.http.origin;
  }

  /** A browser subscribing with `applicationServerKey` (the server's VAPID public key). */
  subscribe(applicationServerKey: string) {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const id = randomBytes(8).toString('hex');
    this.subscriptions.set(id, { privateKey: ecdh.getPrivateKey(), auth, serverKey: applicationServerKey });
    return {
      type: 'webpush' as const,
      endpoint: `${this.origin}/push/${id}`,
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: auth.toString('base64url'),
    };
  }

  private async handle(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) {
    if (this.hang) return;
    const id = /^\/push\/([0-9a-f]+)$/.exec(req.url ?? '')?.[1];
    const subscription = id ? this.subscriptions.get(id) : undefined;
    if (req.method !== 'POST' || !subscription) return answer(res, { status: 404 });
    const refuse = (status: number, why: string) => {
      this.rejected.push(why);
      answer(res, { status, body: JSON.stringify({ reason: why }) });
    };
    const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? '');
    if (!auth) return refuse(401, `no VAPID authorization: ${req.headers.authorization}`);
    if (auth[2] !== subscription.serverKey) return refuse(403, 'k is not the key the subscription was made with');
    let claims: JWTPayload;
    try {
      const k = Buffer.from(auth[2], 'base64url');
      const key = await importJWK(
        {
          kty: 'EC',
          crv: 'P-256',
          x: k.subarray(1, 33).toString('base64url'),
          y: k.subarray(33).toString('base64url'),
        },
        'ES256',
      );
      ({ payload: claims } = await jwtVerify(auth[1], key, {
        algorithms: ['ES256'],
        audience: this.origin,
        currentDate: new Date(this.clock()),
      }));
    } catch (err) {
      return refuse(403, `VAPID JWT refused: ${(err as Error).message}`);
    }
    const now = Math.floor(this.clock() / 1000);
    if (!claims.exp || claims.exp > now + 24 * 3600) return refuse(403, 'VAPID exp more than 24 hours ahead');
    if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
      return refuse(403, 'VAPID sub is not a mailto: or https: contact');
    if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(400, 'content-encoding is not aes128gcm');
    if (!/^\d+$/.test(String(req.headers.ttl))) return refuse(400, 'no TTL header');
    if (!['very-low', 'low', 'normal', 'high'].includes(String(req.headers.urgency)))
      return refuse(400, 'no valid Urgency header');
    if (body.length > 4096) return refuse(413, 'body over 4096 bytes');
    let plaintext: string;
    try {
      plaintext = decryptWebPush(body, subscription.privateKey, subscription.auth).toString('utf8');
    } catch (err) {
      return refuse(400, `cannot decrypt: ${(err as Error).message}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(plaintext);
    } catch {
      json = undefined;
    }
    this.received.push({ subscription: id!, headers: req.headers, claims, plaintext, json, bodyLength: body.length });
    answer(res, this.script.shift() ?? { status: 201 });
  }

  waitFor(count: number): Promise<void> {
    return until(() => this.received.length >= count, `${count} pushes`);
  }

  stop(): Promise<void> {
    return close(this.http);
  }
}

export interface ServiceAccountFile {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  token_uri: string;
}

export interface ReceivedFcmMessage {
  project: string;
  message: any;
}

/** FCM HTTP v1 and Google's OAuth token endpoint, for one service account it makes. */
export class FcmReceiver {
  readonly tokenRequests: JWTPayload[] = [];
  readonly received: ReceivedFcmMessage[] = [];
  readonly rejected: string[] = [];
  script: ScriptedAnswer[] = [];
  tokenScript: ScriptedAnswer[] = [];
  /** Lifetime of the access tokens it issues, in seconds. */
  tokenLifetime = 3600;
  /** The service's clock (tests that move the sender's clock move this one too). */
  clock: () => number = Date.now;
  /** Issued access tokens and when each expires. */
  private readonly tokens = new Map<string, number>();
  private publicKey!: KeyObject;
  private http!: Server;
  account!: ServiceAccountFile;
  readonly scope = 'https://www.googleapis.com/auth/firebase.messaging';

  async start(): Promise<this> {
    this.http = await listen((req, body, res) => void this.handle(req, body, res));
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.publicKey = publicKey;
    this.account = {
      type: 'service_account',
      project_id: 'ponte-test',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'push@ponte-test.iam.gserviceaccount.com',
      token_uri: `${this.origin}/token`,
    };
    return this;
  }

  get origin(): string {
    return this.http.origin;
  }

  /** Every access token issued so far stops working (the next send gets 401). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  private async handle(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) {
    const refuse = (status: number, why: string, json: unknown) => {
      this.rejected.push(why);
      answer(res, { status, body: JSON.stringify(json) });
    };
    if (req.method === 'POST' && req.url === '/token') {
      const form = new URLSearchParams(body.toString());
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return refuse(400, 'grant_type', { error: 'unsupported_grant_type' });
      const assertion = form.get('assertion') ?? '';
      let claims: JWTPayload;
      try {
        if (decodeProtectedHeader(assertion).kid !== this.account.private_key_id) throw new Error('kid');
        ({ payload: claims } = await jwtVerify(assertion, this.publicKey, {
          algorithms: ['RS256'],
          issuer: this.account.client_email,
          audience: this.account.token_uri,
          maxTokenAge: '1h',
          currentDate: new Date(this.clock()),
        }));
      } catch (err) {
        return refuse(400, `assertion: ${(err as Error).message}`, { error: 'invalid_grant' });
      }
      if (claims.scope !== this.scope || !claims.exp || claims.exp - (claims.iat ?? 0) > 3600)
        return refuse(400, 'assertion scope or lifetime', { error: 'invalid_scope' });
      this.tokenRequests.push(claims);
      const scripted = this.tokenScript.shift();
      if (scripted) return answer(res, scripted);
      const token = `ya29.${randomBytes(24).toString('base64url')}`;
      this.tokens.set(token, this.clock() + this.tokenLifetime * 1000);
      return answer(res, {
        status: 200,
        body: JSON.stringify({ access_token: token, expires_in: this.tokenLifetime, token_type: 'Bearer' }),
      });
    }
    const send = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !send) return answer(res, { status: 404 });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !(this.clock() < (this.tokens.get(bearer) ?? 0)))
      return refuse(401, 'bearer', { error: { code: 401, status: 'UNAUTHENTICATED', message: 'invalid credentials' } });
    if (send[1] !== this.account.project_id)
      return refuse(403, 'project', { error: { code: 403, status: 'PERMISSION_DENIED' } });
    const { message } = JSON.parse(body.toString());
    if (typeof message?.token !== 'string')
      return refuse(400, 'no token', { error: { code: 400, status: 'INVALID_ARGUMENT' } });
    this.received.push({ project: send[1], message });
    const scripted = this.script.shift();
    answer(res, scripted ?? { status: 200, body: JSON.stringify({ name: `projects/${send[1]}/messages/1` }) });
  }

  waitFor(count: number): Promise<void> {
    return until(() => this.received.length >= count, `${count} FCM messages`);
  }

  stop(): Promise<void> {
    return close(this.http);
  }
}
