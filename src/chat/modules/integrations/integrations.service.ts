import { conflict, forbidden, HttpError, invalidField, notFound } from '../../../core/http/errors.js';
import { createSecretBox, type SecretBox } from '../../../core/security/encryption.js';
import { loadOrCreateSecret } from '../../../core/security/secrets.js';
import { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import type { WebhookSubscriptions } from '../../../core/webhooks/subscriptions.js';
import { parseJsonObject } from '../../../core/time.js';
import { assertStaff, isAdmin, type AccountContext, type ChatDeps } from '../../context.js';
import type { InboxesService } from '../inboxes/inboxes.service.js';
import { APPS, cleanSettings, findApp, type AppDefinition, type CleanSettings } from './integrations.apps.js';
import type { IntegrationHook } from './integrations.migration.js';
import * as repo from './integrations.repository.js';
import type { HookCreateBody, HookStatusInput, HookUpdateBody } from './integrations.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

/** The key file under DATA_DIR when CHAT_ENCRYPTION_KEY is not set. */
export const CHAT_ENCRYPTION_KEY_FILE = 'chat-encryption.key';

export interface IntegrationsServices {
  inboxes: InboxesService;
  webhooks: WebhookSubscriptions;
}

/** An app of the catalogue with the account's hooks of it, and whether it is enabled there. */
export interface AppView {
  app: AppDefinition;
  hooks: IntegrationHook[];
  enabled: boolean;
}

/** A hook ready to be used: its app, its stored settings and its opened secrets. */
export interface UsableHook {
  hook: IntegrationHook;
  app: AppDefinition;
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

const sealContext = (hookId: number) => `integration_hooks:${hookId}`;

function statusOf(input: HookStatusInput | undefined): number | undefined {
  if (input === undefined) return undefined;
  return input === true || input === 1 || input === '1' || input === 'true' || input === 'enabled' ? 1 : 0;
}

const stringsOf = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));

function assertAdmin(ctx: AccountContext): void {
  assertStaff(ctx);
  if (!isAdmin(ctx)) throw forbidden('Only administrators of this account may do this');
}

/**
 * The app catalogue and the account's integration hooks (`{A}/integrations/...`). Every member reads
 * them (agents need the hook to use the assistant); administrators alone create, change and delete
 * hooks (decisions §3). Settings are checked against the app's fields; secret ones are sealed with
 * AES-256-GCM (key: CHAT_ENCRYPTION_KEY or DATA_DIR/chat-encryption.key, made on first use) and
 * never leave the service except to the app's own endpoint.
 */
export class IntegrationsService {
  private readonly guard: DestinationGuard;
  private secretBox?: SecretBox;

  constructor(
    private readonly deps: ChatDeps,
    private readonly services: IntegrationsServices,
  ) {
    this.guard = new DestinationGuard(deps.config.webhooks.allowedHosts);
  }

  private get box(): SecretBox {
    this.secretBox ??= createSecretBox(
      loadOrCreateSecret(this.deps.config.dataDir, CHAT_ENCRYPTION_KEY_FILE, this.deps.config.chat.encryptionKey),
      'chat-integration-secrets',
    );
    return this.secretBox;
  }

  /** Every app with the account's hooks of it: two queries in all. */
  async apps(ctx: AccountContext): Promise<AppView[]> {
    assertStaff(ctx);
    const [hooks, webhooks] = await Promise.all([
      repo.listHooks(this.deps.db, ctx.accountId),
      this.services.webhooks.count(ctx.accountId),
    ]);
    return APPS.map((app) => {
      const own = hooks.filter((h) => h.app_id === app.id);
      const enabled = app.id === 'webhook' ? webhooks > 0 : own.some((h) => h.status === 1);
      return { app, hooks: own, enabled };
    });
  }

  async app(ctx: AccountContext, id: string): Promise<AppView> {
    const view = (await this.apps(ctx)).find((v) => v.app.id === id);
    if (!view) throw notFound('Integration app');
    return view;
  }

  async get(ctx: AccountContext, id: number): Promise<IntegrationHook> {
    assertStaff(ctx);
    const hook = await repo.findHook(this.deps.db, ctx.accountId, id);
    if (!hook) throw notFound('Integration hook');
    return hook;
  }

  async create(ctx: AccountContext, body: HookCreateBody): Promise<IntegrationHook> {
    assertAdmin(ctx);
    const appId = body.app_id.trim();
    const app = findApp(appId);
    if (!app)
      throw invalidField(
        'app_id',
        t('is not an available integration (apps: %{apps})', { apps: APPS.map((a) => a.id).join(', ') }),
      );
    if (app.managedAt)
      throw invalidField(
        'app_id',
        t('%{app} is managed at %{path}, not as hooks', { app: app.id, path: app.managedAt }),
      );
    const inboxId = body.inbox_id ?? null;
    if (inboxId !== null) await this.services.inboxes.get(ctx, inboxId);
    const clean = cleanSettings(app, body.settings ?? {}, { settings: {}, secrets: {} }, this.guard);
    return this.deps.db.transaction().execute(async (trx) => {
      if (await repo.findHookInScope(trx, ctx.accountId, app.id, inboxId)) {
        const exists =
          inboxId === null
            ? t('An %{app} hook for this account already exists: change it with PATCH', { app: app.id })
            : t('An %{app} hook for this inbox already exists: change it with PATCH', { app: app.id });
        throw conflict(exists, [
          { field: inboxId === null ? 'app_id' : 'inbox_id', message: 'has already been taken' },
        ]);
      }
      const now = Date.now();
      const hook = await repo.insertHook(trx, {
        account_id: ctx.accountId,
        app_id: app.id,
        inbox_id: inboxId,
        status: statusOf(body.status) ?? 1,
        settings: JSON.stringify(clean.settings),
        secrets: null,
        created_at: now,
        updated_at: now,
      });
      if (Object.keys(clean.secrets).length === 0) return hook;
      return repo.updateHook(trx, ctx.accountId, hook.id, { secrets: this.seal(hook.id, clean.secrets) });
    });
  }

  /** Changes status and settings; settings given replace the stored ones field by field. */
  async update(ctx: AccountContext, id: number, body: HookUpdateBody): Promise<IntegrationHook> {
    assertAdmin(ctx);
    return this.deps.db.transaction().execute(async (trx) => {
      const hook = await repo.findHook(trx, ctx.accountId, id);
      if (!hook) throw notFound('Integration hook');
      const app = findApp(hook.app_id);
      if (!app) throw notFound('Integration hook');
      const status = statusOf(body.status);
      if (body.settings === undefined && status === undefined) return hook;
      let clean: CleanSettings | undefined;
      if (body.settings !== undefined) {
        // A key sealed with another CHAT_ENCRYPTION_KEY is unreadable: it must then be given again.
        const current = { settings: stringsOf(parseJsonObject(hook.settings)), secrets: this.open(hook) ?? {} };
        clean = cleanSettings(app, body.settings, current, this.guard);
      }
      return repo.updateHook(trx, ctx.accountId, id, {
        ...(status !== undefined ? { status } : {}),
        ...(clean
          ? {
              settings: JSON.stringify(clean.settings),
              secrets: Object.keys(clean.secrets).length > 0 ? this.seal(id, clean.secrets) : null,
            }
          : {}),
        updated_at: Date.now(),
      });
    });
  }

  async delete(ctx: AccountContext, id: number): Promise<void> {
    assertAdmin(ctx);
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await repo.findHook(trx, ctx.accountId, id))) throw notFound('Integration hook');
      await repo.deleteHook(trx, ctx.accountId, id);
    });
  }

  /**
   * A hook of the account, enabled, of this app, with its secrets opened: what using it needs.
   * 404 when it is not the account's; 422 when it is disabled, of another app, or its secrets
   * cannot be opened (sealed with another key).
   */
  async usable(ctx: AccountContext, id: number, appId: string): Promise<UsableHook> {
    const hook = await this.get(ctx, id);
    const app = findApp(hook.app_id);
    if (!app || app.id !== appId)
      throw new HttpError(
        422,
        'unsupported_event',
        t('Hook %{id} is a %{app} hook, which processes no events', { id, app: hook.app_id }),
      );
    if (hook.status !== 1)
      throw new HttpError(
        422,
        'hook_disabled',
        t('Hook %{id} is disabled: enable it with PATCH {"status": 1}', { id }),
      );
    const secrets = this.open(hook);
    if (secrets === null)
      throw new HttpError(
        422,
        'secret_unreadable',
        t(
          'The secret settings of hook %{id} cannot be decrypted (CHAT_ENCRYPTION_KEY changed?): save them again with PATCH',
          { id },
        ),
      );
    return { hook, app, settings: stringsOf(parseJsonObject(hook.settings)), secrets };
  }

  private seal(hookId: number, secrets: Record<string, string>): string {
    return this.box.seal(JSON.stringify(secrets), sealContext(hookId));
  }

  /** The hook's secret settings, `{}` when it has none, null when they cannot be opened. */
  private open(hook: IntegrationHook): Record<string, string> | null {
    if (hook.secrets === null) return {};
    try {
      return stringsOf(parseJsonObject(this.box.open(hook.secrets, sealContext(hook.id))));
    } catch {
      return null;
    }
  }
}
