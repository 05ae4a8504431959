/**
 * Substitution in automation texts (docs/spec/decisions.md §9): `{{card.title}}`, `{{contact.name}}`,
 * `{{stage.name}}` and `{{owner.name}}`, looked up in a fixed table (as campaigns.template.ts does).
 * Nothing is evaluated and no property is read by name; the validator refuses any other `{{...}}`,
 * so a stored template only ever names these four.
 */
export interface TemplateValues {
  card: { title: string };
  contact: { name: string } | null;
  stage: { name: string };
  owner: { name: string } | null;
}

const VARIABLES: ReadonlyMap<string, (v: TemplateValues) => string | undefined> = new Map([
  ['card.title', (v: TemplateValues) => v.card.title],
  ['contact.name', (v: TemplateValues) => v.contact?.name],
  ['stage.name', (v: TemplateValues) => v.stage.name],
  ['owner.name', (v: TemplateValues) => v.owner?.name],
]);

export const TEMPLATE_VARIABLES = [...VARIABLES.keys()];

const PLACEHOLDER = /\{\{([^{}]{0,200})\}\}/g;

/** The names inside `{{...}}` that are not variables (what makes a template bad). */
export function unknownVariables(template: string): string[] {
  const unknown: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1].trim();
    if (!VARIABLES.has(name)) unknown.push(name);
  }
  return unknown;
}

/** The text with each variable replaced by its value (empty when the card has none). */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_m, inner: string) => VARIABLES.get(inner.trim())?.(values) ?? '');
}
