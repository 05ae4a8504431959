import { Type } from '@sinclair/typebox';
import { discardOnFailure, readMultipart } from '../../../core/http/multipart.js';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { invalidField, notFound } from '../../../core/http/errors.js';
import { SUPPORTED_FORMATS_TEXT } from '../../../core/storage/file-formats.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentAttachments } from './card-detail.presenter.js';
import { A, cardTags as tags, errors, security } from './pipeline-cards.routes.js';
import { CardAttachmentSchema, DeletedAttachmentSchema } from './pipeline-cards.schema.js';

const CardParams = Type.Object({ accountId: IdParam, card_id: IdParam });
const AttachmentParams = Type.Object({ accountId: IdParam, card_id: IdParam, id: IdParam });

/**
 * The multipart form of an upload: one file under `file`. Documentation only: the body of a
 * multipart request is read by the handler, so the schema has no `type` (it accepts the unread body).
 */
const UploadBody = {
  content: {
    'multipart/form-data': {
      schema: {
        description: `One file (${SUPPORTED_FORMATS_TEXT}; 40 MB at most) in the part named file`,
        properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
      },
    },
  },
};

/**
 * A card's files: the same storage, limits, formats and safe serving as message attachments
 * (core/http/multipart.ts); the file is served at its `data_url` by GET /attachments/{key}/{name}.
 */
export const cardAttachmentsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.pipelineCardAttachments;
  const C = `${A}/pipeline/cards/:card_id/attachments`;

  app.get(
    C,
    {
      schema: {
        tags,
        security,
        summary: "A card's attachments, oldest first",
        params: CardParams,
        response: { 200: Type.Object({ data: Type.Array(CardAttachmentSchema) }), ...errors },
      },
    },
    async (req) => ({ data: presentAttachments(await svc.list(ctxOf(req), req.params.card_id), svc.publicUrl) }),
  );

  app.post(
    C,
    {
      config: { multipart: true },
      // Find the card (and the caller's access to it) before anything else looks at the body: an
      // unknown card is a 404 whatever was sent, and no upload starts for it.
      onRequest: async (req) => {
        const raw = String((req.params as unknown as { card_id?: unknown }).card_id ?? '');
        const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : 0;
        if (id < 1 || id > 2147483647) throw notFound('Pipeline card');
        await svc.list(ctxOf(req), id);
      },
      schema: {
        tags,
        security,
        summary: 'Attach a file to a card (multipart/form-data, part file)',
        params: CardParams,
        body: UploadBody,
        response: { 200: Type.Object({ data: CardAttachmentSchema }), 413: ChatErrorBody, ...errors },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const store = services.fileStore;
      const { files } = await readMultipart(req, store, { maxFiles: 1 });
      return discardOnFailure(store, files, async () => {
        if (files.length === 0) throw invalidField('file', 'is required: send the file in the part named file');
        const [data] = presentAttachments(await svc.add(ctx, req.params.card_id, files[0]), svc.publicUrl);
        return { data };
      });
    },
  );

  app.delete(
    `${C}/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Delete an attachment of a card, and its file',
        params: AttachmentParams,
        response: { 200: DeletedAttachmentSchema, ...errors },
      },
    },
    async (req) => {
      await svc.remove(ctxOf(req), req.params.card_id, req.params.id);
      return { data: { id: req.params.id, deleted: true } };
    },
  );
};
