import { text } from 'node:stream/consumers';
import { Type } from '@sinclair/typebox';
import { invalidField } from '../../../core/http/errors.js';
import { readMultipart } from '../../../core/http/multipart.js';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { IMPORT_COLUMNS, MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from './card-csv.service.js';
import { A, cardTags as tags, errors, security } from './pipeline-cards.routes.js';
import { CardListQuery } from './pipeline-cards.schema.js';

const AccountParams = Type.Object({ accountId: IdParam });
const CsvAnswer = {
  description: 'text/csv; charset=utf-8, starting with a UTF-8 BOM',
  content: { 'text/csv': { schema: { type: 'string' } } },
};
const { page: _page, per_page: _perPage, limit: _limit, ...filters } = CardListQuery.properties;
const ExportQuery = Type.Object(filters);

/** The multipart form of an import (documentation: the body is read by the handler). */
const ImportBody = {
  content: {
    'multipart/form-data': {
      schema: {
        description: `A CSV file (UTF-8, ${MAX_IMPORT_BYTES / 1024 / 1024} MB and ${MAX_IMPORT_ROWS} rows at most) in the part named file; columns ${IMPORT_COLUMNS.join(', ')} and custom_attributes.<key>`,
        properties: { file: { type: 'string', contentMediaType: 'text/csv' } },
      },
    },
  },
};

const ImportResult = Type.Object(
  {
    data: Type.Object({ imported: Type.Integer(), card_ids: Type.Array(Type.Integer()) }),
  },
  { examples: [{ data: { imported: 2, card_ids: [41, 42] } }] },
);

const sendCsv = (reply: { header: (k: string, v: string) => unknown }, name: string) => {
  reply.header('content-type', 'text/csv; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${name}"`);
};

/**
 * Cards as CSV (NooviChat's paths; decisions/0029): the list's filters exported, the import's
 * template, and the import of a file (all rows checked first; all created, or none).
 */
export const cardCsvRoutes: ChatRoutes = async (app, { services }) => {
  const csv = services.pipelineCardCsv;
  const C = `${A}/pipeline/cards`;

  app.get(
    `${C}/export`,
    {
      schema: {
        tags,
        security,
        summary: 'The cards the list shows with these filters (every page) as CSV, formula-safe, UTF-8 with a BOM',
        params: AccountParams,
        querystring: ExportQuery,
        response: { 200: CsvAnswer, ...errors },
      },
    },
    async (req, reply) => {
      const text = await csv.export(ctxOf(req), req.query);
      sendCsv(reply, 'pipeline-cards.csv');
      return reply.send(text);
    },
  );

  app.get(
    `${C}/template`,
    {
      schema: {
        tags,
        security,
        summary: `The header of a card import: ${IMPORT_COLUMNS.join(', ')} (custom_attributes.<key> columns may follow)`,
        params: AccountParams,
        response: { 200: CsvAnswer, ...errors },
      },
    },
    async (req, reply) => {
      ctxOf(req);
      sendCsv(reply, 'pipeline-cards-template.csv');
      return reply.send(csv.template());
    },
  );

  app.post(
    `${C}/import`,
    {
      config: { multipart: true },
      schema: {
        tags,
        security,
        summary:
          'Import cards from a CSV file: every row checked first, then all created in one transaction, or none (422 with each refused row)',
        params: AccountParams,
        body: ImportBody,
        response: { 200: ImportResult, 413: ChatErrorBody, ...errors },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const store = services.fileStore;
      // The upload passes through the file store (its limits: 413 over 5 MB), read once, then removed.
      const { files } = await readMultipart(req, store, { maxFiles: 1, maxFileBytes: MAX_IMPORT_BYTES });
      try {
        const blob = files.length === 0 ? undefined : await store.openRead(files[0].storageKey);
        if (!blob) throw invalidField('file', 'is required: send the CSV in the part named file');
        const ids = await csv.import(ctx, await text(blob.stream));
        return { data: { imported: ids.length, card_ids: ids } };
      } finally {
        await store.remove(files.map((f) => f.storageKey));
      }
    },
  );
};
