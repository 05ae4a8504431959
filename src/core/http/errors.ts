/** A validation problem with one field of a request. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * The one error type services throw. The error handler turns it into the service's error body;
 * anything else that reaches the handler is a bug and answers 500 without details.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: FieldProblem[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details?: FieldProblem[]) =>
  new HttpError(400, 'bad_request', message, details);

export const unauthorized = (message = 'Invalid or missing access token') =>
  new HttpError(401, 'unauthorized', message);

export const forbidden = (message = 'You are not allowed to do this') => new HttpError(403, 'forbidden', message);

export const notFound = (what = 'Resource') => new HttpError(404, 'not_found', `${what} not found`);

export const conflict = (message: string, details?: FieldProblem[]) => new HttpError(409, 'conflict', message, details);

export const payloadTooLarge = (message = 'Upload too large') => new HttpError(413, 'payload_too_large', message);

export const unprocessable = (message: string, details?: FieldProblem[]) =>
  new HttpError(422, 'unprocessable_entity', message, details);

export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, 'rate_limited', 'Too many requests, try again later', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

/** Shorthand for a single-field 422. */
export const invalidField = (field: string, message: string) =>
  unprocessable(`${field} ${message}`, [{ field, message }]);
