/**
 * The variables of a campaign message. Rendering is a lookup in this fixed table and nothing else:
 * no expression is evaluated, no property of any object is read by name, so `{{constructor.constructor}}`
 * or `{{__proto__}}` are simply unknown names and become empty, like any other unknown variable.
 */
export interface TemplateSubjects {
  contact: { name: string | null; email: string | null; phone_number: string | null };
  agent: { name: string | null; email: string | null } | null;
}

const firstName = (name: string | null) => (name ?? '').trim().split(/\s+/)[0] ?? '';
const lastName = (name: string | null) => {
  const parts = (name ?? '').trim().split(/\s+/);
  return parts.length > 1 ? parts[parts.length - 1] : '';
};

/** Every variable there is, with how its value is read. */
const VARIABLES: ReadonlyMap<string, (s: TemplateSubjects) => string | null | undefined> = new Map([
  ['contact.name', (s: TemplateSubjects) => s.contact.name],
  ['contact.first_name', (s: TemplateSubjects) => firstName(s.contact.name)],
  ['contact.last_name', (s: TemplateSubjects) => lastName(s.contact.name)],
  ['contact.email', (s: TemplateSubjects) => s.contact.email],
  ['contact.phone_number', (s: TemplateSubjects) => s.contact.phone_number],
  ['agent.name', (s: TemplateSubjects) => s.agent?.name],
  ['agent.first_name', (s: TemplateSubjects) => firstName(s.agent?.name ?? null)],
  ['agent.last_name', (s: TemplateSubjects) => lastName(s.agent?.name ?? null)],
  ['agent.email', (s: TemplateSubjects) => s.agent?.email],
]);

/** `{{ name }}` with optional spaces inside; anything between the braces is a name to look up. */
const PLACEHOLDER = /\{\{([^{}]{0,200})\}\}/g;

/** The message for one contact: each known variable replaced by its value, every other `{{...}}` by nothing. */
export function renderCampaignMessage(template: string, subjects: TemplateSubjects): string {
  return template.replace(PLACEHOLDER, (_match, inner: string) => {
    const read = VARIABLES.get(inner.trim().toLowerCase());
    return read ? (read(subjects) ?? '') : '';
  });
}
