import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { HttpError, type FieldProblem } from './errors.js';
import { languageOf, type Language } from '../i18n/language.js';
import { humanize } from './validation-messages.js';
import { isStorageFull, STORAGE_FULL_RETRY_AFTER_SECONDS } from './storage-health.js';
import { noteRefusal } from '../logging/request-log.js';

/** Renders an error body in a service's own format (chat and finance differ). */
export type ErrorFormatter = (status: number, code: string, message: string, details?: FieldProblem[]) => unknown;

export const chatErrorBody: ErrorFormatter = (_status, code, message, details) => ({
  error: message,
  code,
  ...(details && details.length > 0 ? { details } : {}),
});

export const financeErrorBody: ErrorFormatter = (_status, code, message, details) => ({
  success: false,
  message,
  error: { code, ...(details && details.length > 0 ? { details } : {}) },
});

/** Maps driver errors for unique violations (SQLite and PostgreSQL) to a 409. */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505';
}

function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || e?.code === '23503';
}

interface Mapped {
  status: number;
  code: string;
  message: string;
  details?: FieldProblem[];
  headers?: Record<string, string>;
}

const STORAGE_FULL_MESSAGE = "The server's storage is full, so nothing was saved; try again later";

/**
 * The generic refusals in Brazilian Portuguese, when the request asks for it (Accept-Language) and
 * the message is the generic one; messages a service wrote for one case stay as written.
 */
const GENERIC_PT: Record<string, Record<string, string>> = {
  unauthorized: { 'Invalid or missing access token': 'Token de acesso inválido ou ausente' },
  forbidden: { 'You are not allowed to do this': 'Você não tem permissão para fazer isto' },
  rate_limited: { 'Too many requests, try again later': 'Muitas requisições; tente novamente mais tarde' },
  malformed_body: { 'The request body is not valid JSON': 'O corpo da requisição não é um JSON válido' },
  conflict: { 'A record with the same unique value already exists': 'Já existe um registro com o mesmo valor único' },
  internal_error: { 'Internal server error': 'Erro interno do servidor' },
  shutting_down: {
    'The server is shutting down; send the request again in a moment':
      'O servidor está sendo desligado; envie a requisição de novo em instantes',
  },
  storage_full: {
    [STORAGE_FULL_MESSAGE]: 'O armazenamento do servidor está cheio, então nada foi salvo; tente novamente mais tarde',
  },
};

function translated(mapped: Mapped, language: Language): Mapped {
  if (language !== 'pt-BR') return mapped;
  const message = GENERIC_PT[mapped.code]?.[mapped.message];
  if (message) return { ...mapped, message };
  if (mapped.code === 'not_found' && /^Route \S+ \S+ not found$/.test(mapped.message))
    return { ...mapped, message: mapped.message.replace(/^Route (\S+ \S+) not found$/, 'Rota $1 não encontrada') };
  return mapped;
}

export function mapError(err: FastifyError | Error, language: Language = 'en'): Mapped {
  return translated(mapAnyError(err, language), language);
}

function mapAnyError(err: FastifyError | Error, language: Language): Mapped {
  if (err instanceof HttpError) {
    return { status: err.statusCode, code: err.code, message: err.message, details: err.details, headers: err.headers };
  }
  const fe = err as FastifyError & { validationContext?: string };
  if (fe.validation) {
    const details = humanize(fe.validation as unknown as ErrorObject[], language, fe.validationContext ?? 'body');
    const summary = details.map((d) => `${d.field} ${d.message}`).join('; ');
    const lead = language === 'pt-BR' ? 'Requisição inválida' : 'Invalid request';
    return { status: 422, code: 'validation_failed', message: `${lead}: ${summary}`, details };
  }
  // Operational, not a bug (decisions §2): the request changed nothing and may be sent again.
  if (isStorageFull(err))
    return {
      status: 503,
      code: 'storage_full',
      message: STORAGE_FULL_MESSAGE,
      headers: { 'retry-after': String(STORAGE_FULL_RETRY_AFTER_SECONDS) },
    };
  if (isUniqueViolation(err))
    return { status: 409, code: 'conflict', message: 'A record with the same unique value already exists' };
  if (isForeignKeyViolation(err))
    return { status: 422, code: 'unprocessable_entity', message: 'A referenced record does not exist' };
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'malformed_body', message: 'The request body is not valid JSON' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return {
        status: 400,
        code: 'unsupported_content_type',
        message: 'Unsupported or malformed request content type',
      };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 413, code: 'payload_too_large', message: fe.message || 'Request too large' };
    default:
      break;
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return { status, code: (fe.code ?? 'bad_request').toLowerCase(), message: fe.message };
  }
  return { status: 500, code: 'internal_error', message: 'Internal server error' };
}

export interface ErrorHooks {
  /** A request was refused with 503 storage_full (health and metrics count it). */
  onStorageFull?(): void;
}

/** Installs the one error handler and the 404 handler of a service. */
export function installErrorHandling(app: FastifyInstance, format: ErrorFormatter, hooks: ErrorHooks = {}): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapError(err, languageOf(request.headers['accept-language']));
    if (mapped.code === 'storage_full') hooks.onStorageFull?.();
    // Every refusal says why in the log line (code and message; never the body, which may hold secrets).
    if (mapped.status >= 500) request.log.error({ err, statusCode: mapped.status }, 'request failed');
    else noteRefusal(request, mapped.code, mapped.message);
    if (mapped.headers) reply.headers(mapped.headers);
    return reply.status(mapped.status).send(format(mapped.status, mapped.code, mapped.message, mapped.details));
  });
  app.setNotFoundHandler((request, reply) => {
    const reason = `Route ${request.method} ${request.url.split('?')[0]} not found`;
    noteRefusal(request, 'not_found', reason);
    const { message } = translated(
      { status: 404, code: 'not_found', message: reason },
      languageOf(request.headers['accept-language']),
    );
    return reply.status(404).send(format(404, 'not_found', message));
  });
}
