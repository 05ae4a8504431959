import type { FastifyRequest } from 'fastify';
import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import fp from 'fastify-plugin';
import type { Static, TObject } from '@sinclair/typebox';
import type { App } from './app.types.js';
import { t, type Text } from '../i18n/catalogue.js';
import { HttpError, payloadTooLarge, unprocessable } from './errors.js';
import { validateFields } from './multipart-fields.js';
import { closesConnection, detach, parserError, stopReading, watchBody, type BodyWatch } from './multipart-stream.js';
import { classifyFile, SUPPORTED_FORMATS_TEXT, type FileKind } from '../storage/file-formats.js';
import { FileTooLargeError, sanitizeFileName, type FileStore, type SavedFile } from '../storage/file-store.js';

export { validateFields } from './multipart-fields.js';

/**
 * multipart/form-data uploads (docs/spec/decisions.md §1 and 2: files under `file[]`, `file` or
 * `attachments[]`, at most 15 files of 40 MB each; too large answers 413).
 *
 * How a route takes JSON *or* multipart (the messages route):
 *
 *   app.post(url, {
 *     config: { multipart: true, bodyKey: 'message' },          // opt in; other routes answer 400 to multipart
 *     schema: { body: jsonOrMultipartBody(MessageCreateBody), … },  // JSON validated by Fastify, multipart not
 *   }, async (req) => {
 *     const { body, files } = await readJsonOrMultipart(req, services.fileStore, MessageCreateBody);
 *     return discardOnFailure(services.fileStore, files, async () => present(await svc.create(ctx, …, body, files)));
 *   });
 *
 * `@fastify/multipart` is registered with `attachFieldsToBody: false`: the body of a multipart
 * request stays `undefined` and nothing is read until the handler asks, so a JSON body schema is
 * never applied to it (hence the per-content-type body schema) and files stream straight to the
 * store instead of being buffered.
 */

export const MAX_FILE_BYTES = 40 * 1024 * 1024;
export const MAX_FILES = 15;
export const MAX_FIELDS = 50;
/** Busboy's default; large enough for a long message (Chatwoot allows 150k characters). */
export const MAX_FIELD_BYTES = 1024 * 1024;
export const FILE_FIELD_NAMES: readonly string[] = ['file[]', 'file', 'attachments[]', 'attachments'];
/**
 * What a form may carry besides its files (text fields, part headers, boundaries): a request may
 * be at most its files' limits plus this (15 x 40 MB + 4 MB = 604 MB for messages).
 */
export const FORM_ALLOWANCE_BYTES = 4 * 1024 * 1024;

/** The largest request a multipart route with these limits reads. */
export const maxRequestBytes = (maxFiles: number, maxFileBytes: number) =>
  maxFiles * maxFileBytes + FORM_ALLOWANCE_BYTES;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route accepts multipart/form-data (read with `readMultipart`) besides JSON. */
    multipart?: boolean;
  }
}

/** A file that `readMultipart` streamed into the store. */
export interface StoredFile {
  storageKey: string;
  /** Sanitized original name (`sanitizeFileName`): metadata only, never a path. */
  fileName: string;
  /** Canonical MIME type decided from the declared type and the extension. */
  contentType: string;
  size: number;
  fileType: FileKind;
  extension: string | null;
}

export interface MultipartResult {
  /** Text fields; a name sent twice or ending in `[]` gives an array (under the name without `[]`). */
  fields: Record<string, string | string[]>;
  files: StoredFile[];
}

export interface ReadMultipartOptions {
  /** Defaults to 15; cannot exceed it. */
  maxFiles?: number;
  /** Defaults to 40 MB; cannot exceed it. */
  maxFileBytes?: number;
  /** Rails-style wrapping: with `message`, a field `message[content]` is read as `content`. */
  bodyKey?: string;
}

const unsupportedContentType = (message: Text) => new HttpError(400, 'unsupported_content_type', message);
const malformed = () => new HttpError(400, 'malformed_body', 'The multipart/form-data body is malformed');

/** Registers multipart parsing on the app; routes opt in with `config.multipart`. */
export const multipartPlugin = fp(
  async (app: App) => {
    await app.register(fastifyMultipart, {
      attachFieldsToBody: false,
      throwFileSizeLimit: true,
      limits: {
        fileSize: MAX_FILE_BYTES,
        files: MAX_FILES,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        fieldNameSize: 200,
        parts: MAX_FILES + MAX_FIELDS,
        headerPairs: 200,
      },
    });
    app.addHook('preValidation', async (request) => {
      if (request.is404) return;
      const accepts = request.routeOptions.config?.multipart === true;
      if (request.isMultipart()) {
        if (!accepts)
          throw unsupportedContentType(
            'This endpoint takes a JSON body; multipart/form-data is accepted only where files can be uploaded',
          );
      } else if (accepts && request.mediaType !== 'application/json') {
        // The per-content-type body schema validates JSON only: anything else must not slip through.
        throw unsupportedContentType('Send the body as application/json or multipart/form-data');
      }
    });
  },
  { name: 'ponte-multipart', fastify: '5.x' },
);

/** Registers the multipart plugin (one line in an app factory). */
export async function registerMultipart(app: App): Promise<void> {
  await app.register(multipartPlugin);
}

/**
 * Route body schema for a route taking JSON or multipart: Fastify validates `application/json`
 * bodies against `json`; a multipart body is `undefined` until read, so its entry only documents
 * the form (it has no `type`, so it accepts the empty body). Validate multipart fields with
 * `validateFields` (or use `readJsonOrMultipart`). `req.body` is typed `unknown` with this schema.
 */
export function jsonOrMultipartBody(json: TObject) {
  const form = {
    description: `multipart/form-data: the same fields as text, and up to ${MAX_FILES} files (${SUPPORTED_FORMATS_TEXT}; ${MAX_FILE_BYTES / 1024 / 1024} MB each) under file[], file or attachments[]`,
    properties: {
      ...json.properties,
      'file[]': {
        type: 'array',
        maxItems: MAX_FILES,
        items: { type: 'string', contentMediaType: 'application/octet-stream' },
      },
    },
  };
  return { content: { 'application/json': { schema: json }, 'multipart/form-data': { schema: form } } };
}

/**
 * Reads a multipart body: text fields into `fields`, every file part named `file[]`, `file`,
 * `attachments[]` or `attachments` streamed into `store` (never buffered). Throws, having removed
 * every file it stored, with 400 (not multipart, malformed), 413 (a file over 40 MB, more than 15
 * files, too many or too long fields, a request over `maxRequestBytes`) or 422 (another file field
 * name, an unsupported format, an empty file). A request too large is refused as soon as that is
 * known: from its Content-Length before anything is read, at the byte a file passes its limit, or at
 * the byte the request passes its total; the rest is not read (`stopReading`). On success the
 * caller owns the files: remove them if the operation then fails (`discardOnFailure`).
 */
export async function readMultipart(
  request: FastifyRequest,
  store: FileStore,
  options: ReadMultipartOptions = {},
): Promise<MultipartResult> {
  if (!request.isMultipart()) throw unsupportedContentType('Expected a multipart/form-data body');
  const maxFiles = Math.min(options.maxFiles ?? MAX_FILES, MAX_FILES);
  const maxFileBytes = Math.min(options.maxFileBytes ?? MAX_FILE_BYTES, MAX_FILE_BYTES);
  const maxBytes = maxRequestBytes(maxFiles, maxFileBytes);
  const declared = Number(request.headers['content-length']);
  if (declared > maxBytes) {
    stopReading(request);
    throw withConnectionClose(request, requestTooLarge(maxBytes));
  }
  const fields: Record<string, string | string[]> = Object.create(null);
  const files: StoredFile[] = [];
  const parts = request.parts({ limits: { files: maxFiles, fileSize: maxFileBytes } })[Symbol.asyncIterator]();
  let body: BodyWatch | undefined;
  let next: Promise<IteratorResult<Multipart>> | undefined;
  /** The file being stored, stopped when the request turns out too large. */
  let current: { file: NodeJS.ReadableStream & { destroy(err?: Error): void }; saving: Promise<SavedFile> } | undefined;
  try {
    // The first next() pipes the request into the parser; watching starts right after, before data flows.
    next = parts.next();
    next.catch(() => {}); // a refusal may leave it pending; the parser's error is read from it below
    body = watchBody(request, maxBytes, () => requestTooLarge(maxBytes));
    const tooLarge = body.tooLarge;
    tooLarge.catch((err: Error) => current?.file.destroy(err));
    for (;;) {
      const { value: part, done } = await Promise.race([next, tooLarge]);
      if (done) break;
      // Ask for the following part at once: the parser reports an error in the current file
      // ("part terminated early") only there, and a file stream that errored before it was read
      // would otherwise never end. The error destroys the file, failing its save.
      const following = parts.next();
      following.catch(() => {});
      next = following;
      if (part.type === 'field') {
        if (part.valueTruncated)
          throw payloadTooLarge(
            t('Field %{field} is longer than %{max} bytes', { field: part.fieldname, max: MAX_FIELD_BYTES }),
          );
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        addField(fields, unwrapName(part.fieldname, options.bodyKey), value);
        continue;
      }
      following.catch((err: Error) => part.file.destroy(err));
      // The parser stops storing at the limit but would read the rest of the part: stop at once.
      part.file.on('limit', () => {
        detach(request);
        part.file.destroy(new FileTooLargeError(maxFileBytes));
      });
      const fieldName = part.fieldname;
      if (!FILE_FIELD_NAMES.includes(fieldName)) {
        part.file.resume();
        throw unprocessable(
          t('Files must be sent as file[], file or attachments[], not as "%{field}"', {
            field: fieldName.slice(0, 100),
          }),
          [{ field: fieldName.slice(0, 100), message: 'is not a file field' }],
        );
      }
      if (!part.filename) {
        // An HTML form's empty file input: a part without a name and without content. Skip it.
        if ((await drainedBytes(part.file)) > 0) {
          throw unprocessable('Every attachment needs a file name', [
            { field: fieldName, message: 'has no file name' },
          ]);
        }
        continue;
      }
      const fileName = sanitizeFileName(part.filename);
      const format = classifyFile(part.mimetype, fileName);
      if (!format) {
        part.file.resume();
        throw unprocessable(
          t('Unsupported attachment "%{file}" (%{type}): supported are %{formats}', {
            file: fileName,
            type: part.mimetype || t('no type'),
            formats: t(SUPPORTED_FORMATS_TEXT),
          }),
          [{ field: fieldName, message: 'has an unsupported file type' }],
        );
      }
      const saving = store.save(part.file, { fileName, contentType: format.contentType, maxBytes: maxFileBytes });
      current = { file: part.file, saving };
      const saved = await Promise.race([saving, tooLarge]);
      current = undefined;
      const stored: StoredFile = {
        storageKey: saved.storageKey,
        fileName,
        contentType: format.contentType,
        size: saved.size,
        fileType: format.kind,
        extension: format.extension,
      };
      files.push(stored);
      // Busboy stops at the limit and flags the stream: the file on disk is cut short.
      if (part.file.truncated) throw fileTooLarge(maxFileBytes);
      if (saved.size === 0) {
        throw unprocessable(t('Attachment "%{file}" is empty', { file: fileName }), [
          { field: fieldName, message: 'is an empty file' },
        ]);
      }
    }
    // The parser takes a body without its closing delimiter (empty, garbage, cut off) for an
    // empty or shorter form; that is a malformed request, not a form without fields.
    if (!body.closed()) throw malformed();
  } catch (err) {
    body?.stop();
    detach(request);
    // A file stream that failed because the parser gave up (too many files, a file over the
    // limit, a cut body) reports a bare stream error: the parser's own error is the real cause.
    const cause =
      err instanceof HttpError || err instanceof FileTooLargeError || !next ? err : ((await parserError(next)) ?? err);
    // A file cut short removes itself; one that was complete when the request was refused is removed here.
    const orphan = await current?.saving.catch(() => undefined);
    await store.remove([...files.map((f) => f.storageKey), ...(orphan ? [orphan.storageKey] : [])]);
    const refusal = toHttpError(cause, maxFiles, maxFileBytes);
    stopReading(request);
    throw withConnectionClose(request, refusal);
  }
  body.stop();
  return { fields: { ...fields }, files };
}

/**
 * The body of a route declared with `jsonOrMultipartBody(schema)`: a JSON body as Fastify
 * validated it, or the multipart fields validated against the same schema (text coerced to the
 * schema's types) with the stored files. Files are removed again when the fields are invalid.
 * The Rails wrapping key is taken from the route's `config.bodyKey`.
 */
export async function readJsonOrMultipart<T extends TObject>(
  request: FastifyRequest,
  store: FileStore,
  schema: T,
  options: Omit<ReadMultipartOptions, 'bodyKey'> = {},
): Promise<{ body: Static<T>; files: StoredFile[] }> {
  if (!request.isMultipart()) return { body: request.body as Static<T>, files: [] };
  const { fields, files } = await readMultipart(request, store, {
    ...options,
    bodyKey: request.routeOptions.config?.bodyKey,
  });
  return discardOnFailure(store, files, async () => ({ body: validateFields(schema, fields), files }));
}

/** Runs `operation`; if it throws, the stored files are removed before the error propagates. */
export async function discardOnFailure<R>(
  store: FileStore,
  files: readonly StoredFile[],
  operation: () => Promise<R>,
): Promise<R> {
  try {
    return await operation();
  } catch (err) {
    await store.remove(files.map((f) => f.storageKey));
    throw err;
  }
}

/** Reads a part's stream to its end, counting its bytes. */
async function drainedBytes(stream: NodeJS.ReadableStream & { destroyed?: boolean }): Promise<number> {
  if (stream.destroyed) throw malformed();
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Buffer).length;
  return bytes;
}

function unwrapName(name: string, bodyKey: string | undefined): string {
  if (bodyKey && name.startsWith(`${bodyKey}[`)) {
    const match = /^\[([^\]]+)\](\[\])?$/.exec(name.slice(bodyKey.length));
    if (match) return match[1] + (match[2] ?? '');
  }
  return name;
}

function addField(fields: Record<string, string | string[]>, rawName: string, value: string) {
  const isArray = rawName.endsWith('[]');
  const name = isArray ? rawName.slice(0, -2) : rawName;
  if (name === '' || name === '__proto__') return;
  const existing = fields[name];
  if (existing === undefined) fields[name] = isArray ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else fields[name] = [existing, value];
}

const requestTooLarge = (maxBytes: number) =>
  payloadTooLarge(t('The request may be at most %{megabytes} MB', { megabytes: Math.floor(maxBytes / 1024 / 1024) }));

/** A refusal sent before the whole body arrived closes the connection (multipart-stream.ts). */
function withConnectionClose(request: FastifyRequest, refusal: unknown): unknown {
  if (!(refusal instanceof HttpError) || !closesConnection(request)) return refusal;
  const { statusCode, code, text, details, headers } = refusal;
  return new HttpError(statusCode, code, text, details, { ...headers, connection: 'close' });
}

const fileTooLarge = (maxBytes: number) =>
  payloadTooLarge(
    t('Each attachment may be at most %{megabytes} MB', { megabytes: Math.floor(maxBytes / 1024 / 1024) }),
  );

/** Maps whatever stopped the upload to the answer the client gets. */
function toHttpError(err: unknown, maxFiles: number, maxFileBytes: number): unknown {
  if (err instanceof HttpError) return err;
  if (err instanceof FileTooLargeError) return fileTooLarge(maxFileBytes);
  const e = err as { code?: string; syscall?: string };
  switch (e?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(maxFileBytes);
    case 'FST_FILES_LIMIT':
      return payloadTooLarge(t('At most %{max} attachments per request', { max: maxFiles }));
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return payloadTooLarge(t('At most %{max} fields per request', { max: MAX_FIELDS }));
    default:
      break;
  }
  // A failing disk is the server's: a full one (ENOSPC) answers 503 storage_full, anything else
  // (EACCES…) surfaces as a 500.
  if (e?.syscall) return err;
  // Anything else comes from the parser or the client's stream: bad boundary, a part cut short,
  // invalid JSON field, a prototype field name, an aborted upload.
  return malformed();
}
