import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentLabel } from './labels.presenter.js';
import { LabelCreateBody, LabelListSchema, LabelSchema, LabelUpdateBody } from './labels.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['labels'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const LabelParams = Type.Object({ accountId: IdParam, id: IdParam });
const admin = { adminOnly: true, bodyKey: 'label' };

/** {A}/labels: every member lists and reads them; administrators create, change and delete them. */
export const labelsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.labels;

  app.get(
    `${A}/labels`,
    {
      schema: {
        tags,
        security,
        summary: "The account's labels, by title",
        params: AccountParams,
        response: { 200: LabelListSchema, ...errors },
      },
    },
    async (req) => ({ payload: (await svc.list(ctxOf(req))).map(presentLabel) }),
  );

  app.get(
    `${A}/labels/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Show a label',
        params: LabelParams,
        response: { 200: LabelSchema, ...errors },
      },
    },
    async (req) => presentLabel(await svc.get(ctxOf(req), req.params.id)),
  );

  app.post(
    `${A}/labels`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Create a label (administrators); the title is stored lower-cased and is unique in the account',
        params: AccountParams,
        body: LabelCreateBody,
        response: { 200: LabelSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => presentLabel(await svc.create(ctxOf(req), req.body)),
  );

  app.patch(
    `${A}/labels/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary:
          'Update a label (administrators); a new title is renamed on the contacts and conversations carrying it',
        params: LabelParams,
        body: LabelUpdateBody,
        response: { 200: LabelSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => presentLabel(await svc.update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    `${A}/labels/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete a label (administrators); contacts and conversations keep the string',
        params: LabelParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );
};
