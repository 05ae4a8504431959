import type { ErrorObject } from 'ajv';
import type { Language } from '../i18n/language.js';
import type { FieldProblem } from './errors.js';

/**
 * Ajv's errors as sentences a person reads: one problem per field, naming it ("email must be a
 * valid e-mail address"), never a schema's inner words ("must match a schema in anyOf"). A union
 * (a nullable field, a list of allowed values) reads as the alternative that came closest. English,
 * or Brazilian Portuguese for `pt-BR`. The validators run Ajv with `verbose` so each error carries
 * the schema that failed.
 */

interface Words {
  mustBe: (expected: string) => string;
  required: string;
  type: Record<string, string>;
  or: string;
  oneOf: (values: string) => string;
  format: Record<string, string>;
  formatOther: (format: string) => string;
  pattern: (example: string | undefined) => string;
  notEmpty: string;
  minLength: (n: number) => string;
  maxLength: (n: number) => string;
  minimum: (n: number) => string;
  maximum: (n: number) => string;
  exclusiveMinimum: (n: number) => string;
  exclusiveMaximum: (n: number) => string;
  multipleOf: (n: number) => string;
  minItems: (n: number) => string;
  maxItems: (n: number) => string;
  uniqueItems: string;
  minProperties: (n: number) => string;
  maxProperties: (n: number) => string;
  unknownField: string;
  invalid: string;
}

const WORDS: Record<Language, Words> = {
  en: {
    mustBe: (expected) => `must be ${expected}`,
    required: 'is required',
    type: {
      string: 'text',
      integer: 'a whole number',
      number: 'a number',
      boolean: 'true or false',
      object: 'an object',
      array: 'a list',
      null: 'null',
    },
    or: ' or ',
    oneOf: (values) => `must be one of: ${values}`,
    format: {
      email: 'must be a valid e-mail address',
      date: 'must be a date as YYYY-MM-DD',
      'date-time': 'must be a date and time in ISO 8601 (2026-11-23T10:00:00Z)',
      time: 'must be a time as HH:MM',
      uri: 'must be a URL',
      'http-url': 'must be an http:// or https:// URL',
      'time-zone': 'must be an IANA time zone such as America/Sao_Paulo',
      timestamp: 'must be a time in ISO 8601 (2031-09-15T09:00:00Z; without an offset, UTC), a date or UNIX seconds',
      uuid: 'must be a UUID',
      ipv4: 'must be an IPv4 address',
      hostname: 'must be a host name',
    },
    formatOther: (format) => `must be a valid ${format}`,
    pattern: (example) =>
      example ? `is not in the expected form (for example ${example})` : 'is not in the expected form',
    notEmpty: 'must not be empty',
    minLength: (n) => `must be at least ${n} characters long`,
    maxLength: (n) => `must be at most ${n} characters long`,
    minimum: (n) => `must be at least ${n}`,
    maximum: (n) => `must be at most ${n}`,
    exclusiveMinimum: (n) => `must be greater than ${n}`,
    exclusiveMaximum: (n) => `must be less than ${n}`,
    multipleOf: (n) => `must be a multiple of ${n}`,
    minItems: (n) => (n === 1 ? 'must have at least one item' : `must have at least ${n} items`),
    maxItems: (n) => `must have at most ${n} items`,
    uniqueItems: 'must not repeat an item',
    minProperties: (n) => (n === 1 ? 'must have at least one key' : `must have at least ${n} keys`),
    maxProperties: (n) => `must have at most ${n} keys`,
    unknownField: 'is not a field of this request',
    invalid: 'is invalid',
  },
  'pt-BR': {
    mustBe: (expected) => `deve ser ${expected}`,
    required: 'é obrigatório',
    type: {
      string: 'texto',
      integer: 'um número inteiro',
      number: 'um número',
      boolean: 'true ou false',
      object: 'um objeto',
      array: 'uma lista',
      null: 'null',
    },
    or: ' ou ',
    oneOf: (values) => `deve ser um destes: ${values}`,
    format: {
      email: 'deve ser um endereço de e-mail válido',
      date: 'deve ser uma data no formato AAAA-MM-DD',
      'date-time': 'deve ser data e hora em ISO 8601 (2026-11-23T10:00:00Z)',
      time: 'deve ser um horário no formato HH:MM',
      uri: 'deve ser uma URL',
      'http-url': 'deve ser uma URL http:// ou https://',
      'time-zone': 'deve ser um fuso horário IANA, como America/Sao_Paulo',
      timestamp: 'deve ser um horário em ISO 8601 (2031-09-15T09:00:00Z; sem fuso, UTC), uma data ou segundos UNIX',
      uuid: 'deve ser um UUID',
      ipv4: 'deve ser um endereço IPv4',
      hostname: 'deve ser um nome de host',
    },
    formatOther: (format) => `deve ser um ${format} válido`,
    pattern: (example) =>
      example ? `não está no formato esperado (por exemplo ${example})` : 'não está no formato esperado',
    notEmpty: 'não pode ficar vazio',
    minLength: (n) => `deve ter pelo menos ${n} caracteres`,
    maxLength: (n) => `deve ter no máximo ${n} caracteres`,
    minimum: (n) => `deve ser no mínimo ${n}`,
    maximum: (n) => `deve ser no máximo ${n}`,
    exclusiveMinimum: (n) => `deve ser maior que ${n}`,
    exclusiveMaximum: (n) => `deve ser menor que ${n}`,
    multipleOf: (n) => `deve ser múltiplo de ${n}`,
    minItems: (n) => (n === 1 ? 'deve ter pelo menos um item' : `deve ter pelo menos ${n} itens`),
    maxItems: (n) => `deve ter no máximo ${n} itens`,
    uniqueItems: 'não pode repetir itens',
    minProperties: (n) => (n === 1 ? 'deve ter pelo menos uma chave' : `deve ter pelo menos ${n} chaves`),
    maxProperties: (n) => `deve ter no máximo ${n} chaves`,
    unknownField: 'não é um campo desta requisição',
    invalid: 'é inválido',
  },
};

type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  examples?: unknown[];
  errorMessage?: string;
};

/** The field an error is about, as a dotted path (`channel.webhook_url`, `payload.0.values`). */
function fieldOf(error: ErrorObject, fallback: string): string {
  let field = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = error.params as { missingProperty?: unknown; additionalProperty?: unknown };
  const named = params.missingProperty ?? params.additionalProperty;
  if (typeof named === 'string') field = field ? `${field}.${named}` : named;
  return field || fallback;
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The values a union of constants (or an enum) allows, when it is one. */
function allowedValues(schema: Schema | undefined): unknown[] | undefined {
  if (!schema) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return undefined;
  const values: unknown[] = [];
  for (const branch of branches) {
    const inner = allowedValues(branch);
    if (!inner) return undefined;
    values.push(...inner);
  }
  return values;
}

function typeWords(schema: Schema | undefined, words: Words): string | undefined {
  if (!schema) return undefined;
  const values = allowedValues(schema);
  if (values) return values.map(show).join(', ');
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.map((b) => typeWords(b, words) ?? words.invalid).join(words.or);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return types.length > 0 ? types.map((t) => words.type[t] ?? t).join(words.or) : undefined;
}

/** One error of a single keyword, as a sentence's predicate. */
function sentence(error: ErrorObject, words: Words): string {
  const parent = error.parentSchema as Schema | undefined;
  if (parent?.errorMessage && typeof parent.errorMessage === 'string') return parent.errorMessage;
  const p = error.params as Record<string, unknown>;
  const n = (key: string) => Number(p[key]);
  switch (error.keyword) {
    case 'required':
      return words.required;
    case 'type': {
      const expected = String(p.type)
        .split(',')
        .map((t) => words.type[t] ?? t)
        .join(words.or);
      return words.mustBe(expected);
    }
    case 'const':
    case 'enum': {
      const values = allowedValues(parent) ?? (p.allowedValues as unknown[] | undefined) ?? [p.allowedValue];
      return words.oneOf(values.map(show).join(', '));
    }
    case 'format':
      return words.format[String(p.format)] ?? words.formatOther(String(p.format));
    case 'pattern': {
      const example = Array.isArray(parent?.examples) ? parent.examples[0] : undefined;
      return words.pattern(example === undefined ? undefined : show(example));
    }
    case 'minLength':
      return n('limit') === 1 ? words.notEmpty : words.minLength(n('limit'));
    case 'maxLength':
      return words.maxLength(n('limit'));
    case 'minimum':
      return words.minimum(n('limit'));
    case 'maximum':
      return words.maximum(n('limit'));
    case 'exclusiveMinimum':
      return words.exclusiveMinimum(n('limit'));
    case 'exclusiveMaximum':
      return words.exclusiveMaximum(n('limit'));
    case 'multipleOf':
      return words.multipleOf(n('multipleOf'));
    case 'minItems':
      return words.minItems(n('limit'));
    case 'maxItems':
      return words.maxItems(n('limit'));
    case 'uniqueItems':
      return words.uniqueItems;
    case 'minProperties':
      return words.minProperties(n('limit'));
    case 'maxProperties':
      return words.maxProperties(n('limit'));
    case 'additionalProperties':
      return words.unknownField;
    default:
      return words.invalid;
  }
}

/** The message for a failed union: the alternative that came closest, or the list of what fits. */
function unionSentence(union: ErrorObject, branchErrors: ErrorObject[], words: Words): string {
  const schema = union.schema as Schema[] | undefined;
  const branches = Array.isArray(schema) ? schema : [];
  const values = allowedValues({ anyOf: branches });
  if (values) return words.oneOf(values.map(show).join(', '));
  // A branch whose type matched failed on a constraint: that is what the caller meant to send.
  const closest = branchErrors.find((e) => e.keyword !== 'type' && e.instancePath === union.instancePath);
  if (closest) return sentence(closest, words);
  const deeper = branchErrors.find((e) => e.instancePath !== union.instancePath);
  if (deeper) return sentence(deeper, words);
  return words.mustBe(typeWords({ anyOf: branches }, words) ?? words.invalid);
}

/** Ajv's errors (run with `verbose`) as one readable problem per field, in the caller's language. */
export function humanize(errors: readonly ErrorObject[], language: Language, fallbackField = 'body'): FieldProblem[] {
  const words = WORDS[language];
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const inBranch = (e: ErrorObject, u: ErrorObject) => e !== u && e.schemaPath.startsWith(`${u.schemaPath}/`);
  const problems = new Map<string, string>();
  for (const error of errors) {
    if (unions.some((u) => inBranch(error, u))) continue;
    const field = fieldOf(error, fallbackField);
    if (problems.has(field)) continue;
    const message =
      error.keyword === 'anyOf' || error.keyword === 'oneOf'
        ? unionSentence(
            error,
            errors.filter((e) => inBranch(e, error)),
            words,
          )
        : sentence(error, words);
    problems.set(field, message);
  }
  return [...problems].map(([field, message]) => ({ field, message }));
}
