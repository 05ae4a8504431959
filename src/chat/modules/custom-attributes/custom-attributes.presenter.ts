import { toIso } from '../../../core/time.js';
import type { CustomAttributeDefinition } from './custom-attributes.migration.js';

/** A JSON column read back; what the service wrote, so a parse failure only means "nothing". */
function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A definition's list choices, as stored. */
export function storedValues(row: CustomAttributeDefinition): string[] {
  const value = parseJson(row.attribute_values);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A definition's default value, as stored. */
export function storedDefault(row: CustomAttributeDefinition): string | number | boolean | null {
  const value = parseJson(row.default_value);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
}

/** Chatwoot's custom attribute definition (enums by name, timestamps ISO 8601). */
export function presentDefinition(row: CustomAttributeDefinition) {
  return {
    id: row.id,
    attribute_display_name: row.attribute_display_name,
    attribute_display_type: row.attribute_display_type,
    attribute_description: row.attribute_description,
    attribute_key: row.attribute_key,
    attribute_model: row.attribute_model,
    attribute_values: storedValues(row),
    regex_pattern: row.regex_pattern,
    regex_cue: row.regex_cue,
    default_value: storedDefault(row),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
