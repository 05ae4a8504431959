import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentDefinition } from './custom-attributes.presenter.js';
import {
  DefinitionCreateBody,
  DefinitionListQuery,
  DefinitionListSchema,
  DefinitionSchema,
  DefinitionUpdateBody,
} from './custom-attributes.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['custom attributes'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const DefinitionParams = Type.Object({ accountId: IdParam, id: IdParam });
/** Administrators write (decisions §3); every member reads. */
const admin = { adminOnly: true, bodyKey: 'custom_attribute_definition' };

export const customAttributesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.customAttributes;

  app.get(
    `${A}/custom_attribute_definitions`,
    {
      schema: {
        tags,
        security,
        summary: "List the account's custom attribute definitions, optionally of one attribute_model",
        params: AccountParams,
        querystring: DefinitionListQuery,
        response: { 200: DefinitionListSchema, ...errors },
      },
    },
    async (req) => ({ data: (await svc.list(ctxOf(req), req.query)).map(presentDefinition) }),
  );

  app.post(
    `${A}/custom_attribute_definitions`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Create a custom attribute definition (attribute_key snake_case, unique per model)',
        params: AccountParams,
        body: DefinitionCreateBody,
        response: { 200: DefinitionSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => presentDefinition(await svc.create(ctxOf(req), req.body)),
  );

  app.get(
    `${A}/custom_attribute_definitions/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Show a custom attribute definition',
        params: DefinitionParams,
        response: { 200: DefinitionSchema, ...errors },
      },
    },
    async (req) => presentDefinition(await svc.get(ctxOf(req), req.params.id)),
  );

  app.patch(
    `${A}/custom_attribute_definitions/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary:
          'Update a custom attribute definition (display name, description, values, regex, default; key, model and type stay)',
        params: DefinitionParams,
        body: DefinitionUpdateBody,
        response: { 200: DefinitionSchema, ...errors },
      },
    },
    async (req) => presentDefinition(await svc.update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    `${A}/custom_attribute_definitions/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete a custom attribute definition (values stored on contacts and conversations stay)',
        params: DefinitionParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );
};
