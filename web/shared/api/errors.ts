/**
 * A refusal as the apps use it, read from either service's error body: the conversation service
 * answers `{error, code, details?}`, the finance service `{success: false, message, error: {code,
 * details?}}`. `message` is the server's sentence (in the language the request asked for, where
 * the server has it); `code` lets the UI say it in its own words.
 */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface ApiError {
  /** The HTTP status; 0 when the server could not be reached. */
  status: number;
  code: string;
  message: string;
  details: FieldProblem[];
  /** Retry-After of a 429 or 503, in seconds. */
  retryAfterSeconds?: number;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

function problems(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const r = record(item);
    return r && typeof r.field === 'string' && typeof r.message === 'string'
      ? [{ field: r.field, message: r.message }]
      : [];
  });
}

/** Reads the body of a refused request (whatever it holds) and its response's headers. */
export function apiErrorOf(body: unknown, response: Pick<Response, 'status' | 'headers'>): ApiError {
  const b = record(body) ?? {};
  const nested = record(b.error);
  const code =
    (typeof b.code === 'string' && b.code) || (nested && typeof nested.code === 'string' && nested.code) || 'unknown';
  const message = (typeof b.error === 'string' && b.error) || (typeof b.message === 'string' && b.message) || '';
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    status: response.status,
    code,
    message,
    details: problems(b.details ?? nested?.details),
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: Math.ceil(retryAfter) } : {}),
  };
}

/** The error of a request that got no answer (offline, server down). */
export const unreachable = (): ApiError => ({ status: 0, code: 'network', message: '', details: [] });
