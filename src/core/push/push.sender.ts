import { DestinationGuard } from '../webhooks/destination-guard.js';
import { FcmClient } from './fcm.client.js';
import { DEFAULT_FCM_BASE_URL, type PushSettings, type ServiceAccount, type VapidKeys } from './push.config.js';
import { PushHttp } from './push.http.js';
import {
  webPushPayload,
  type PushMessage,
  type PushOptions,
  type PushOutcome,
  type PushSubscription,
} from './push.message.js';
import { loadVapidKeys, VapidSigner } from './vapid.js';
import { sendWebPush } from './web-push.sender.js';

export interface PushSenderOptions {
  vapid: VapidKeys;
  vapidSubject: string;
  firebase?: ServiceAccount | null;
  fcmBaseUrl?: string;
  /** The outbound-address policy every push request passes. */
  guard: DestinationGuard;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  clock?: () => number;
}

/**
 * Sends one push to one subscription and says how it went: Web Push to browsers (VAPID, RFC 8291
 * encryption), FCM HTTP v1 to devices of an app built with the operator's Firebase project. It
 * knows nothing of queues: the delivery job (push.jobs.ts) calls it outside any transaction.
 */
export class PushSender {
  /** The VAPID public key, base64url: what a page passes to `pushManager.subscribe` as `applicationServerKey`. */
  readonly vapidPublicKey: string;
  private readonly http: PushHttp;
  private readonly vapid: VapidSigner;
  private readonly fcm: FcmClient | null;
  private readonly clock: () => number;

  constructor(options: PushSenderOptions) {
    this.clock = options.clock ?? Date.now;
    this.http = new PushHttp(options.guard, options.timeoutMs ?? 10_000);
    this.vapid = new VapidSigner(options.vapid, options.vapidSubject, this.clock);
    this.vapidPublicKey = options.vapid.publicKey;
    this.fcm = options.firebase
      ? new FcmClient(this.http, options.firebase, options.fcmBaseUrl ?? DEFAULT_FCM_BASE_URL, this.clock)
      : null;
  }

  /** Whether FCM subscriptions can be sent to (a service account is configured). */
  get fcmEnabled(): boolean {
    return this.fcm !== null;
  }

  async send(subscription: PushSubscription, message: PushMessage, options: PushOptions): Promise<PushOutcome> {
    if (subscription.type === 'webpush')
      return sendWebPush(this.http, this.vapid, subscription, webPushPayload(message), options, this.clock);
    if (!this.fcm)
      return { result: 'failed', status: null, error: 'FCM is not configured (no Firebase service account)' };
    return this.fcm.send(subscription.token, message, options);
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    await this.http.close();
  }
}

/**
 * The sender of a service from configuration: the configured VAPID pair or the one kept in
 * DATA_DIR (generated at first start), and the push requests held to the outbound-address policy
 * (`WEBHOOK_ALLOWED_HOSTS` names the exceptions).
 */
export function createPushSender(
  settings: PushSettings,
  dataDir: string,
  allowedHosts: readonly string[],
  options: { timeoutMs?: number; clock?: () => number } = {},
): PushSender {
  return new PushSender({
    vapid: loadVapidKeys(dataDir, settings.vapid),
    vapidSubject: settings.vapidSubject,
    firebase: settings.firebase,
    fcmBaseUrl: settings.fcmBaseUrl,
    guard: new DestinationGuard(allowedHosts),
    ...options,
  });
}
