import { allOf, english, phrase, t, type MessageKey, type Phrase, type Text } from '../i18n/catalogue.js';
// The sentences of these refusals (and every other one both services share).
import '../i18n/core.messages.js';

/** A validation problem with one field of a request, as the error body shows it (rendered). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A problem with one field as a service throws it: the message is a text of the catalogue. */
export interface FieldIssue {
  field: string;
  message: Text;
}

/**
 * The one error type services throw. It carries a text of the catalogue (core/i18n/catalogue.ts),
 * which the error handler renders in the request's language; `message` is its English, for logs.
 * Anything else that reaches the handler is a bug and answers 500 without details.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly text: Text,
    readonly details?: FieldIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(english(text));
    this.name = 'HttpError';
  }
}

/** What `notFound` names: `X` for each `X not found` of the catalogue (without parameters). */
export type NotFoundSubject = MessageKey extends infer K
  ? K extends `${infer N} not found`
    ? N extends `${string}%{${string}`
      ? never
      : N
    : never
  : never;

export const badRequest = (message: Text, details?: FieldIssue[]) =>
  new HttpError(400, 'bad_request', message, details);

export const unauthorized = (message: Text = 'Invalid or missing access token') =>
  new HttpError(401, 'unauthorized', message);

export const forbidden = (message: Text = 'You are not allowed to do this') => new HttpError(403, 'forbidden', message);

export const notFound = (what: NotFoundSubject = 'Resource') =>
  new HttpError(404, 'not_found', `${what} not found` as Text);

export const conflict = (message: Text, details?: FieldIssue[]) => new HttpError(409, 'conflict', message, details);

export const payloadTooLarge = (message: Text = 'Upload too large') => new HttpError(413, 'payload_too_large', message);

export const unprocessable = (message: Text, details?: FieldIssue[]) =>
  new HttpError(422, 'unprocessable_entity', message, details);

export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, 'rate_limited', 'Too many requests, try again later', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

/** A field and its problem as one sentence: "email has already been taken". */
export const fieldSentence = (issue: FieldIssue): Phrase =>
  t('%{field} %{problem}', { field: issue.field, problem: phrase(issue.message) });

/** A 422 `validation_failed` naming each field's problem, as a body that fails its schema gets. */
export const validationFailed = (issues: FieldIssue[]) =>
  new HttpError(
    422,
    'validation_failed',
    t('Invalid request: %{problems}', { problems: issues.map(fieldSentence) }),
    issues,
  );

/** A 422 naming the required fields a request left out: "since and until are required". */
export function missingFields(fields: readonly string[], problem: Text = 'is required'): HttpError {
  const issues = fields.map((field) => ({ field, message: problem }));
  const text =
    fields.length > 1
      ? t('%{fields} are required', { fields: allOf(fields) })
      : t('%{field} is required', { field: fields[0] });
  return unprocessable(text, issues);
}

/** Shorthand for a single-field 422. */
export const invalidField = (field: string, message: Text) =>
  unprocessable(fieldSentence({ field, message }), [{ field, message }]);
