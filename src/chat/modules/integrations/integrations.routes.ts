import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentApp, presentHook } from './integrations.presenter.js';
import {
  AppParams,
  AppSchema,
  HookCreateBody,
  HookSchema,
  HookUpdateBody,
  ProcessAnswer,
  ProcessBody,
} from './integrations.schema.js';
import type { AppView } from './integrations.service.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['integrations'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const HookParams = Type.Object({ accountId: IdParam, id: IdParam });
/** Administrators alone manage hooks (decisions §3); members read them and use the assistant. */
const admin = { adminOnly: true, bodyKey: 'hook' };

const app = (view: AppView) => presentApp(view.app, view.hooks, view.enabled);

export const integrationsRoutes: ChatRoutes = async (api, { services }) => {
  const svc = services.integrations;
  const assistant = services.openAiAssistant;

  api.get(
    `${A}/integrations/apps`,
    {
      schema: {
        tags,
        security,
        summary: "List the integration apps Ponte runs, with the account's hooks of each",
        params: AccountParams,
        response: { 200: Type.Object({ payload: Type.Array(AppSchema) }), ...errors },
      },
    },
    async (req) => ({ payload: (await svc.apps(ctxOf(req))).map(app) }),
  );

  api.get(
    `${A}/integrations/apps/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Show an integration app',
        params: AppParams,
        response: { 200: AppSchema, ...errors },
      },
    },
    async (req) => app(await svc.app(ctxOf(req), req.params.id)),
  );

  api.post(
    `${A}/integrations/hooks`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Create an integration hook; settings are checked against the app (secrets are write-only)',
        params: AccountParams,
        body: HookCreateBody,
        response: { 200: HookSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => presentHook(await svc.create(ctxOf(req), req.body)),
  );

  api.get(
    `${A}/integrations/hooks/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Show an integration hook (without its secret settings)',
        params: HookParams,
        response: { 200: HookSchema, ...errors },
      },
    },
    async (req) => presentHook(await svc.get(ctxOf(req), req.params.id)),
  );

  api.patch(
    `${A}/integrations/hooks/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Update an integration hook: status, and settings field by field',
        params: HookParams,
        body: HookUpdateBody,
        response: { 200: HookSchema, ...errors },
      },
    },
    async (req) => presentHook(await svc.update(ctxOf(req), req.params.id, req.body)),
  );

  api.delete(
    `${A}/integrations/hooks/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Delete an integration hook',
        params: HookParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );

  // `process` (the spec) and `process_event` (Chatwoot's path): the same operation.
  for (const path of ['process', 'process_event']) {
    api.post(
      `${A}/integrations/hooks/:id/${path}`,
      {
        schema: {
          tags,
          security,
          summary:
            'Run an event of an openai hook: reply_suggestion or summarize on a conversation; rephrase, ' +
            'fix_spelling_grammar, shorten, expand, make_friendly, make_formal or simplify on a text',
          params: HookParams,
          body: ProcessBody,
          response: { 200: ProcessAnswer, 429: ChatErrorBody, 502: ChatErrorBody, 504: ChatErrorBody, ...errors },
        },
      },
      async (req) => assistant.process(ctxOf(req), req.params.id, req.body),
    );
  }
};
