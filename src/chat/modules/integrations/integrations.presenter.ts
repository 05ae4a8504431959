import { parseJsonObject, toIso } from '../../../core/time.js';
import { findApp, visibleSettings, type AppDefinition } from './integrations.apps.js';
import type { IntegrationHook } from './integrations.migration.js';

/**
 * A hook as Chatwoot shows it (`status` a boolean, `hook_type`), with its effective non-secret
 * settings. Secret settings (`api_key`) are never part of it.
 */
export function presentHook(row: IntegrationHook) {
  return {
    id: row.id,
    app_id: row.app_id,
    inbox_id: row.inbox_id,
    account_id: row.account_id,
    status: row.status === 1,
    hook_type: row.inbox_id === null ? 'account' : 'inbox',
    settings: visibleSettings(findApp(row.app_id), parseJsonObject(row.settings)),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** An app of the catalogue with the account's hooks of it and whether it is enabled there. */
export function presentApp(app: AppDefinition, hooks: IntegrationHook[], enabled: boolean) {
  return {
    id: app.id,
    name: app.name,
    description: app.description,
    hook_type: app.hookType,
    enabled,
    allow_multiple_hooks: app.allowMultipleHooks,
    hooks: hooks.map(presentHook),
    settings_fields: app.fields.map((f) => ({
      name: f.name,
      description: f.description,
      required: f.required,
      secret: f.secret,
      default: f.default ?? null,
    })),
    ...(app.managedAt ? { managed_at: app.managedAt } : {}),
  };
}
