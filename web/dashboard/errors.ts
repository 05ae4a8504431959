import type { ApiError } from '../shared/api/errors.js';
import { i18n } from './i18n/index.js';

/**
 * A refusal as one sentence in the UI's language: the UI's own words where the cause is generic
 * (no answer, too many requests, a server failure), else the server's sentence, which it wrote in
 * the language the request asked for (Accept-Language).
 */
export function errorSentence(error: ApiError): string {
  const { t } = i18n.global;
  if (error.status === 0) return t('errors.network');
  if (error.status === 429) return t('errors.rateLimited', { seconds: error.retryAfterSeconds ?? 60 });
  if (error.status >= 500 || !error.message) return t('errors.server');
  return error.message;
}
