import type { FieldProblem } from '../../../shared/api/errors.js';

/**
 * The server's field problems of a refused form, by the form's field names. The server names a
 * field by its path in the body (`email`, `contact.email` with Chatwoot's wrapper,
 * `/custom_attributes/tier`, `body.phone_number`); the first sentence per field is kept. Problems
 * about no field of the form are returned apart (the form says them above its fields).
 */
export function fieldErrors(
  problems: readonly FieldProblem[],
  fields: readonly string[],
): { byField: Record<string, string>; rest: FieldProblem[] } {
  const byField: Record<string, string> = {};
  const rest: FieldProblem[] = [];
  for (const problem of problems) {
    const path = problem.field
      .replace(/^\//, '')
      .replace(/\//g, '.')
      .replace(/^(body|contact)\./, '');
    const field = fields.find((f) => path === f || path.startsWith(`${f}.`));
    if (field) byField[field] ??= problem.message;
    else rest.push(problem);
  }
  return { byField, rest };
}
