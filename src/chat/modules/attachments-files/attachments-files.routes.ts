import { Type } from '@sinclair/typebox';
import { ChatErrorBody } from '../../../core/http/schemas.js';
import type { ChatRoutes } from '../../module.types.js';

const Params = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 500 }),
  name: Type.String({ minLength: 1, maxLength: 500 }),
});

/** RFC 6266 / 8187: an ASCII fallback name plus the exact UTF-8 name. */
function contentDisposition(inline: boolean, fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * `GET /attachments/:key/:name`: the file behind an attachment's `data_url`. No token (the key is
 * the credential); served with the stored type, `nosniff` and a sandboxing CSP so an uploaded file
 * can never run as a page of this origin; documents download, media show inline. Files under a
 * key never change, so browsers may keep them (privately) for a day.
 */
export const attachmentFilesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.attachmentFiles;

  app.get(
    '/attachments/:key/:name',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['attachments'],
        summary: 'Download an attachment file (the URL is the credential)',
        params: Params,
        response: {
          200: Type.Unknown({ description: 'The file bytes' }),
          206: Type.Unknown({ description: 'The requested byte range' }),
          404: ChatErrorBody,
          416: ChatErrorBody,
          422: ChatErrorBody,
        },
      },
    },
    async (req, reply) => {
      const range = typeof req.headers.range === 'string' ? req.headers.range : undefined;
      const file = await svc.open(req.params.key, req.params.name, range);
      reply
        .header('content-type', file.contentType)
        .header('content-disposition', contentDisposition(file.inline, file.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox")
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('accept-ranges', 'bytes');
      if (file.range) {
        reply
          .status(206)
          .header('content-range', `bytes ${file.range.start}-${file.range.end}/${file.size}`)
          .header('content-length', String(file.range.end - file.range.start + 1));
      } else {
        reply.header('content-length', String(file.size));
      }
      return reply.send(file.stream);
    },
  );
};
