import { parseTimestamp } from '../../../core/time.js';
import { conflict, forbidden, invalidField, notFound } from '../../../core/http/errors.js';
import { assertStaff, isAdmin, type AccountContext, type ChatDeps, type Q } from '../../context.js';
import { CONTACT_FILTER_ATTRIBUTES } from '../contacts/contacts.filter.js';
import { FILTER_ATTRIBUTES } from '../conversations/conversations.filter.js';
import { type FilterCriterion } from '../../filters/criteria.js';
import { customAttributeCondition, MODEL_OF, readBoolean, readNumbers } from './custom-attributes.filter.js';
import { type CustomAttributeCriteria, type ExtraCriterion, type FilteredTable } from '../../filters/criteria.js';
import {
  ATTRIBUTE_MODELS,
  DISPLAY_TYPES,
  type AttributeModel,
  type CustomAttributeDefinition,
  type DisplayType,
} from './custom-attributes.migration.js';
import { storedDefault, storedValues } from './custom-attributes.presenter.js';
import * as repo from './custom-attributes.repository.js';
import type { DefinitionCreateBody, DefinitionListQuery, DefinitionUpdateBody } from './custom-attributes.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

/** snake_case: lowercase letters, digits and underscores, not starting with an underscore. */
const KEY = /^[a-z0-9][a-z0-9_]*$/;

/**
 * Keys a definition may not take: the model's standard attributes (Chatwoot's list) and every key
 * its filter already knows, so that a defined key always means the custom attribute.
 */
const RESERVED_KEYS: Record<AttributeModel, ReadonlySet<string>> = {
  conversation_attribute: new Set([
    ...Object.keys(FILTER_ATTRIBUTES),
    ...['status', 'priority', 'assignee_id', 'inbox_id', 'team_id', 'display_id', 'campaign_id', 'labels'],
    ...['browser_language', 'country_code', 'referer', 'created_at', 'last_activity_at'],
  ]),
  contact_attribute: new Set([
    ...Object.keys(CONTACT_FILTER_ATTRIBUTES),
    ...['name', 'email', 'phone_number', 'identifier', 'country_code', 'city', 'created_at', 'last_activity_at'],
    ...['referer', 'blocked'],
  ]),
};

/** An enum given by name, or by its number as a number or as text (Chatwoot's clients send either). */
function enumOf<T extends string>(values: readonly T[], input: string | number, field: string): T {
  const index = typeof input === 'number' ? input : /^\d+$/.test(input) ? Number(input) : -1;
  const value = index >= 0 ? values[index] : values.find((v) => v === input);
  if (value === undefined) throw invalidField(field, t('must be one of %{values}', { values: values.join(', ') }));
  return value;
}

export const modelOf = (input: string | number, field = 'attribute_model') => enumOf(ATTRIBUTE_MODELS, input, field);
const displayTypeOf = (input: string | number) => enumOf(DISPLAY_TYPES, input, 'attribute_display_type');

function cleanKey(raw: string, model: AttributeModel): string {
  const key = raw.trim();
  if (!KEY.test(key))
    throw invalidField('attribute_key', 'must be snake_case: lowercase letters, digits and underscores');
  if (RESERVED_KEYS[model].has(key))
    throw invalidField(
      'attribute_key',
      t("'%{key}' is a standard attribute of %{model}s", { key, model: model.replace('_attribute', '') }),
    );
  return key;
}

function cleanName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw invalidField('attribute_display_name', "can't be blank");
  return name;
}

/** Trimmed text, or null when empty. */
const optionalText = (raw: string | null | undefined) => (raw?.trim() ? raw.trim() : null);

/** A list's choices: trimmed, blanks and repeats (regardless of case) dropped, at least one. */
function cleanValues(type: DisplayType, raw: readonly string[] | null | undefined): string[] {
  if (type !== 'list') return [];
  const seen = new Set<string>();
  const values: string[] = [];
  for (const value of (raw ?? []).map((v) => v.trim())) {
    if (value === '' || seen.has(value.toLowerCase())) continue;
    seen.add(value.toLowerCase());
    values.push(value);
  }
  if (values.length === 0) throw invalidField('attribute_values', 'must list at least one value for a list');
  return values;
}

function cleanRegex(raw: string | null | undefined): string | null {
  const pattern = optionalText(raw);
  if (pattern === null) return null;
  try {
    // As clients compile it (Chatwoot's dashboard: `new RegExp(pattern)`, no flags).
    new RegExp(pattern);
  } catch {
    throw invalidField('regex_pattern', 'is not a valid regular expression');
  }
  return pattern;
}

/** The default value as stored (JSON), checked against the display type; null for none. */
function cleanDefault(type: DisplayType, values: string[], raw: string | number | boolean | null | undefined) {
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return null;
  const field = 'default_value';
  let value: string | number | boolean;
  switch (type) {
    case 'number':
    case 'currency':
    case 'percent':
      value = readNumbers([raw], field)[0];
      break;
    case 'checkbox':
      value = readBoolean(raw, field);
      break;
    case 'date': {
      const text = String(raw).trim();
      if (!/^\d{4}-\d{2}-\d{2}/.test(text) || !parseTimestamp(text))
        throw invalidField(field, 'must be an ISO 8601 date');
      value = text;
      break;
    }
    case 'list':
      value = String(raw).trim();
      if (!values.includes(value)) throw invalidField(field, 'must be one of attribute_values');
      break;
    default:
      value = String(raw).trim();
  }
  return JSON.stringify(value);
}

const duplicate = () =>
  conflict('A custom attribute with this key already exists for this model', [
    { field: 'attribute_key', message: 'has already been taken' },
  ]);

/** The fields of a definition that follow from the body (and, on update, the definition as it is). */
interface Draft {
  attribute_display_name: string;
  attribute_display_type: DisplayType;
  attribute_description: string | null;
  attribute_values: readonly string[] | null;
  regex_pattern: string | null;
  regex_cue: string | null;
  default_value: string | number | boolean | null;
}

function cleanDraft(draft: Draft) {
  const values = cleanValues(draft.attribute_display_type, draft.attribute_values);
  return {
    attribute_display_name: cleanName(draft.attribute_display_name),
    attribute_description: optionalText(draft.attribute_description),
    attribute_values: JSON.stringify(values),
    regex_pattern: cleanRegex(draft.regex_pattern),
    regex_cue: optionalText(draft.regex_cue),
    default_value: cleanDefault(draft.attribute_display_type, values, draft.default_value),
  };
}

/**
 * Custom attribute definitions: what the custom attributes of conversations and contacts mean.
 * Every member reads them; administrators alone write them (decisions §3). A key is snake_case and
 * unique per account and model (409); key, model and display type never change. Deleting a
 * definition leaves the values stored on conversations and contacts as they are. The filters of
 * conversations and contacts accept a defined key (criteriaFor).
 */
export class CustomAttributesService implements CustomAttributeCriteria {
  constructor(private readonly deps: ChatDeps) {}

  list(ctx: AccountContext, query: DefinitionListQuery): Promise<CustomAttributeDefinition[]> {
    assertStaff(ctx);
    const model = query.attribute_model === undefined ? undefined : modelOf(query.attribute_model);
    return repo.listDefinitions(this.deps.db, ctx.accountId, model);
  }

  get(ctx: AccountContext, id: number): Promise<CustomAttributeDefinition> {
    assertStaff(ctx);
    return this.find(this.deps.db, ctx.accountId, id);
  }

  async create(ctx: AccountContext, body: DefinitionCreateBody): Promise<CustomAttributeDefinition> {
    assertAdministrator(ctx);
    const model = modelOf(body.attribute_model);
    const type = displayTypeOf(body.attribute_display_type);
    const key = cleanKey(body.attribute_key, model);
    const fields = cleanDraft({
      attribute_display_name: body.attribute_display_name,
      attribute_display_type: type,
      attribute_description: body.attribute_description ?? null,
      attribute_values: body.attribute_values ?? [],
      regex_pattern: body.regex_pattern ?? null,
      regex_cue: body.regex_cue ?? null,
      default_value: body.default_value ?? null,
    });
    return this.deps.db.transaction().execute(async (trx) => {
      if (await repo.findByKey(trx, ctx.accountId, model, key)) throw duplicate();
      const now = Date.now();
      return repo.insertDefinition(trx, {
        account_id: ctx.accountId,
        attribute_model: model,
        attribute_key: key,
        attribute_display_type: type,
        ...fields,
        created_at: now,
        updated_at: now,
      });
    });
  }

  async update(ctx: AccountContext, id: number, body: DefinitionUpdateBody): Promise<CustomAttributeDefinition> {
    assertAdministrator(ctx);
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await this.find(trx, ctx.accountId, id);
      const unchanged = (field: string, same: boolean) => {
        if (!same) throw invalidField(field, 'cannot be changed; create another attribute instead');
      };
      if (body.attribute_model !== undefined)
        unchanged('attribute_model', modelOf(body.attribute_model) === current.attribute_model);
      if (body.attribute_display_type !== undefined)
        unchanged(
          'attribute_display_type',
          displayTypeOf(body.attribute_display_type) === current.attribute_display_type,
        );
      if (body.attribute_key !== undefined)
        unchanged('attribute_key', body.attribute_key.trim() === current.attribute_key);
      const fields = cleanDraft({
        attribute_display_name: body.attribute_display_name ?? current.attribute_display_name,
        attribute_display_type: current.attribute_display_type,
        attribute_description:
          body.attribute_description !== undefined ? body.attribute_description : current.attribute_description,
        attribute_values: body.attribute_values !== undefined ? body.attribute_values : storedValues(current),
        regex_pattern: body.regex_pattern !== undefined ? body.regex_pattern : current.regex_pattern,
        regex_cue: body.regex_cue !== undefined ? body.regex_cue : current.regex_cue,
        default_value: body.default_value !== undefined ? body.default_value : storedDefault(current),
      });
      return repo.updateDefinition(trx, ctx.accountId, id, { ...fields, updated_at: Date.now() });
    });
  }

  async delete(ctx: AccountContext, id: number): Promise<void> {
    assertAdministrator(ctx);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.find(trx, ctx.accountId, id);
      await repo.deleteDefinition(trx, ctx.accountId, id);
    });
  }

  /**
   * The conditions on defined keys a filter request may use, for the filter of `table`: one query
   * for the definitions of the keys the criteria name that are not the filter's own. Undefined when
   * none is defined, so the filter answers 422 for an unknown key as before.
   */
  async criteriaFor<T extends FilteredTable>(
    accountId: number,
    table: T,
    criteria: readonly FilterCriterion[],
    q: Q = this.deps.db,
  ): Promise<ExtraCriterion<T> | undefined> {
    const model = MODEL_OF[table];
    const keys = [...new Set(criteria.map((c) => c.attribute_key))].filter(
      (key) => typeof key === 'string' && KEY.test(key) && !RESERVED_KEYS[model].has(key),
    );
    const definitions = await repo.findByKeys(q, accountId, model, keys);
    if (definitions.length === 0) return undefined;
    const byKey = new Map(definitions.map((d) => [d.attribute_key, d]));
    const dialect = this.deps.dialect;
    return (c, path) => {
      const definition = byKey.get(c.attribute_key);
      return definition && customAttributeCondition(table, definition, c, path, { dialect });
    };
  }

  private async find(q: Q, accountId: number, id: number): Promise<CustomAttributeDefinition> {
    const row = await repo.findDefinition(q, accountId, id);
    if (!row) throw notFound('Custom attribute definition');
    return row;
  }
}

function assertAdministrator(ctx: AccountContext): void {
  if (!isAdmin(ctx)) throw forbidden('Only administrators of this account may manage custom attributes');
}
