import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentCannedResponse } from './canned-responses.presenter.js';
import {
  CannedResponseBody,
  CannedResponseListQuery,
  CannedResponsePatch,
  CannedResponseSchema,
} from './canned-responses.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['canned responses'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const ResponseParams = Type.Object({ accountId: IdParam, id: IdParam });
/** Any member of the account, agents included (decisions §10). */
const config = { bodyKey: 'canned_response' };

export const cannedResponsesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.cannedResponses;

  app.get(
    `${A}/canned_responses`,
    {
      schema: {
        tags,
        security,
        summary: 'List canned responses; `search` matches short_code or content, short-code matches first',
        params: AccountParams,
        querystring: CannedResponseListQuery,
        response: { 200: Type.Array(CannedResponseSchema), ...errors },
      },
    },
    async (req) => (await svc.list(ctxOf(req), req.query)).map(presentCannedResponse),
  );

  app.post(
    `${A}/canned_responses`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Create a canned response (short_code without spaces, unique in the account)',
        params: AccountParams,
        body: CannedResponseBody,
        response: { 200: CannedResponseSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => presentCannedResponse(await svc.create(ctxOf(req), req.body)),
  );

  app.patch(
    `${A}/canned_responses/:id`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Update a canned response',
        params: ResponseParams,
        body: CannedResponsePatch,
        response: { 200: CannedResponseSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => presentCannedResponse(await svc.update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    `${A}/canned_responses/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Delete a canned response',
        params: ResponseParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );
};
