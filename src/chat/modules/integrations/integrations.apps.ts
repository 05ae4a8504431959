import { HttpError, fieldSentence, invalidField, unprocessable, type FieldIssue } from '../../../core/http/errors.js';
import { isHttpUrl } from '../../../core/http/validation.js';
import type { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import { checkOutboundAddress } from '../../../core/webhooks/outbound-policy.js';
import { t } from '../../../core/i18n/catalogue.js';

/**
 * The app catalogue: the integrations Ponte really runs, and the settings each one takes. An app
 * that is not here does not exist (422 on a hook that names it). Settings are strings; a secret one
 * is write-only (sealed at rest, never in an answer).
 */

export interface SettingField {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  /** Write-only: stored sealed, never returned. */
  readonly secret: boolean;
  /** The value used when the setting is not given (shown in answers as the effective value). */
  readonly default?: string;
  readonly maxLength: number;
  /** Meaning-level check of a given value (trimmed, not empty); returns the value as stored or throws a 422. */
  readonly clean?: (value: string, field: string, guard: DestinationGuard) => string;
}

export interface AppDefinition {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** Chatwoot's `hook_type`: an `account` hook serves the account, optionally limited to one inbox. */
  readonly hookType: 'account' | 'inbox';
  readonly allowMultipleHooks: boolean;
  /** Where its records are managed when not through `{A}/integrations/hooks` (the webhook app). */
  readonly managedAt?: string;
  readonly fields: readonly SettingField[];
}

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

/**
 * An OpenAI-compatible API base (`https://api.openai.com/v1`, `http://ollama:11434/v1`, ...): an
 * http(s) URL without credentials or fragment, whose host the destination guard allows (the same
 * guard as outgoing webhooks; the resolved address is checked again at each call). A trailing
 * `/chat/completions` is dropped: the endpoint is always `{base_url}/chat/completions`.
 */
function cleanBaseUrl(value: string, field: string, guard: DestinationGuard): string {
  if (!isHttpUrl(value)) throw invalidField(field, 'must be an http:// or https:// URL');
  const url = new URL(value);
  if (url.username || url.password)
    throw invalidField(field, 'must not carry credentials (put the key in settings.api_key)');
  if (url.hash) throw invalidField(field, 'must not have a fragment (#...)');
  checkOutboundAddress(guard, field, value);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/chat\/completions$/, '');
  return `${url.origin}${path}${url.search}`;
}

function noSpaces(value: string, field: string): string {
  if (/\s/u.test(value)) throw invalidField(field, 'must not contain spaces');
  return value;
}

export const OPENAI_APP: AppDefinition = {
  id: 'openai',
  name: 'OpenAI',
  description:
    'Reply suggestions, conversation summaries and rewriting (rephrase, fix spelling and grammar, shorten, ' +
    'expand, friendlier, more formal, simpler) through any OpenAI-compatible chat completions API.',
  hookType: 'account',
  allowMultipleHooks: true,
  fields: [
    {
      name: 'api_key',
      description: 'The API key, sent as Authorization: Bearer. Write-only: never returned.',
      required: true,
      secret: true,
      maxLength: 512,
      clean: noSpaces,
    },
    {
      name: 'base_url',
      description: 'Base URL of the OpenAI-compatible API; requests go to {base_url}/chat/completions.',
      required: false,
      secret: false,
      default: OPENAI_DEFAULT_BASE_URL,
      maxLength: 2048,
      clean: cleanBaseUrl,
    },
    {
      name: 'model',
      description: 'The model to ask, as the endpoint names it.',
      required: false,
      secret: false,
      default: OPENAI_DEFAULT_MODEL,
      maxLength: 200,
      clean: noSpaces,
    },
  ],
};

export const WEBHOOK_APP: AppDefinition = {
  id: 'webhook',
  name: 'Webhooks',
  description:
    "Signed HTTP callbacks for the account's events. Enabled when the account has a webhook; " +
    'managed at {A}/webhooks.',
  hookType: 'account',
  allowMultipleHooks: true,
  managedAt: '/api/v1/accounts/{account_id}/webhooks',
  fields: [],
};

/** Every app, in the order the catalogue lists them. */
export const APPS: readonly AppDefinition[] = [OPENAI_APP, WEBHOOK_APP];

export const findApp = (id: string): AppDefinition | undefined => APPS.find((app) => app.id === id);

export interface CleanSettings {
  /** Non-secret settings as stored (defaults are not stored). */
  settings: Record<string, string>;
  /** Secret settings as stored, before sealing. */
  secrets: Record<string, string>;
}

/**
 * The settings a hook will have: `input` (a free-form object from the request) checked against the
 * app's fields and laid over `current` (the stored ones on an update). A field given as null or ""
 * goes back to its default. 422 naming `settings.<name>` for an unknown name, a value that is not a
 * string, too long or invalid, and a required field that ends up missing.
 */
export function cleanSettings(
  app: AppDefinition,
  input: Record<string, unknown>,
  current: CleanSettings,
  guard: DestinationGuard,
): CleanSettings {
  const out: CleanSettings = { settings: { ...current.settings }, secrets: { ...current.secrets } };
  const problems: FieldIssue[] = [];
  for (const [name, raw] of Object.entries(input)) {
    const field = `settings.${name}`;
    const spec = app.fields.find((f) => f.name === name);
    if (!spec) {
      const known = app.fields.map((f) => f.name).join(', ') || t('none');
      problems.push({ field, message: t('is not a setting of %{app} (settings: %{known})', { app: app.id, known }) });
      continue;
    }
    const target = spec.secret ? out.secrets : out.settings;
    if (raw === null || raw === '') {
      delete target[name];
      continue;
    }
    if (typeof raw !== 'string') {
      problems.push({ field, message: 'must be a string' });
      continue;
    }
    const value = raw.trim();
    if (value === '') problems.push({ field, message: "can't be blank" });
    else if (value.length > spec.maxLength)
      problems.push({ field, message: t('is too long (at most %{max} characters)', { max: spec.maxLength }) });
    else {
      try {
        target[name] = spec.clean ? spec.clean(value, field, guard) : value;
      } catch (err) {
        const details = err instanceof HttpError ? err.details : undefined;
        if (!details) throw err;
        problems.push(...details);
      }
    }
  }
  for (const spec of app.fields) {
    const stored = spec.secret ? out.secrets : out.settings;
    if (spec.required && stored[spec.name] === undefined && !problems.some((p) => p.field === `settings.${spec.name}`))
      problems.push({ field: `settings.${spec.name}`, message: 'is required' });
  }
  if (problems.length > 0)
    throw unprocessable(
      t('Invalid %{app} settings: %{problems}', { app: app.id, problems: problems.map(fieldSentence) }),
      problems,
    );
  return out;
}

/** The settings as answers show them: every non-secret field with its effective value; secrets never. */
export function visibleSettings(
  app: AppDefinition | undefined,
  stored: Record<string, unknown>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of app?.fields ?? []) {
    if (spec.secret) continue;
    const value = stored[spec.name];
    if (typeof value === 'string') out[spec.name] = value;
    else if (spec.default !== undefined) out[spec.name] = spec.default;
  }
  return out;
}
