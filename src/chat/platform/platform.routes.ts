import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../core/http/schemas.js';
import type { ChatRoutes } from '../module.types.js';
import { presentAccount, presentAccountUser, presentPlatformUser } from './platform.presenter.js';
import {
  AccountBody,
  AccountPatch,
  AccountUserBody,
  AccountUserDeleteBody,
  PlatformAccount,
  PlatformAccountUser,
  PlatformUser,
  UserBody,
  UserPatch,
} from './platform.schema.js';

const P = '/platform/api/v1';
const platform = { auth: 'platform' as const };
const tags = ['platform'];
const security = [{ platformAppApiKey: [] }];
const errors = { 401: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ account_id: IdParam });
const UserParams = Type.Object({ id: IdParam });

function appIdOf(actor: unknown): number {
  return (actor as { platformAppId: number }).platformAppId;
}

export const platformRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.platform;

  const userResponse = async (user: Parameters<typeof svc.present>[0]) => {
    const { token, memberships } = await svc.present(user);
    return presentPlatformUser(user, token, memberships);
  };

  app.post(
    `${P}/accounts`,
    {
      config: { ...platform, bodyKey: 'account' },
      schema: {
        tags,
        security,
        summary: 'Create an account',
        body: AccountBody,
        response: { 200: PlatformAccount, ...errors },
      },
    },
    async (req) => presentAccount(await svc.createAccount(appIdOf(req.actor), req.body)),
  );

  app.get(
    `${P}/accounts/:account_id`,
    {
      config: platform,
      schema: {
        tags,
        security,
        summary: 'Show an account',
        params: AccountParams,
        response: { 200: PlatformAccount, ...errors },
      },
    },
    async (req) => presentAccount(await svc.getAccount(appIdOf(req.actor), req.params.account_id)),
  );

  app.patch(
    `${P}/accounts/:account_id`,
    {
      config: { ...platform, bodyKey: 'account' },
      schema: {
        tags,
        security,
        summary: 'Update an account',
        params: AccountParams,
        body: AccountPatch,
        response: { 200: PlatformAccount, ...errors },
      },
    },
    async (req) => presentAccount(await svc.updateAccount(appIdOf(req.actor), req.params.account_id, req.body)),
  );

  app.delete(
    `${P}/accounts/:account_id`,
    {
      config: platform,
      schema: {
        tags,
        security,
        summary: 'Delete an account and all its data',
        params: AccountParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.deleteAccount(appIdOf(req.actor), req.params.account_id);
      return {};
    },
  );

  app.get(
    `${P}/accounts/:account_id/account_users`,
    {
      config: platform,
      schema: {
        tags,
        security,
        summary: 'List the members of an account',
        params: AccountParams,
        response: { 200: Type.Object({ data: Type.Array(PlatformAccountUser) }), ...errors },
      },
    },
    async (req) => ({
      data: (await svc.listAccountUsers(appIdOf(req.actor), req.params.account_id)).map(presentAccountUser),
    }),
  );

  app.post(
    `${P}/accounts/:account_id/account_users`,
    {
      config: { ...platform, bodyKey: 'account_user' },
      schema: {
        tags,
        security,
        summary: 'Add a user to an account (or change the role)',
        params: AccountParams,
        body: AccountUserBody,
        response: { 200: PlatformAccountUser, ...errors },
      },
    },
    async (req) =>
      presentAccountUser(
        await svc.addAccountUser(appIdOf(req.actor), req.params.account_id, req.body.user_id, req.body.role),
      ),
  );

  app.delete(
    `${P}/accounts/:account_id/account_users`,
    {
      config: { ...platform, bodyKey: 'account_user' },
      schema: {
        tags,
        security,
        summary: 'Remove a user from an account',
        params: AccountParams,
        body: AccountUserDeleteBody,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.removeAccountUser(appIdOf(req.actor), req.params.account_id, req.body.user_id);
      return {};
    },
  );

  app.post(
    `${P}/users`,
    {
      config: { ...platform, bodyKey: 'user' },
      schema: {
        tags,
        security,
        summary:
          'Create a user (an e-mail this app already created returns that user; any other existing e-mail is a 409)',
        body: UserBody,
        response: { 200: PlatformUser, ...errors, 409: ChatErrorBody },
      },
    },
    async (req) => userResponse(await svc.createUser(appIdOf(req.actor), req.body)),
  );

  app.get(
    `${P}/users/:id`,
    {
      config: platform,
      schema: {
        tags,
        security,
        summary: 'Show a user',
        params: UserParams,
        response: { 200: PlatformUser, ...errors },
      },
    },
    async (req) => userResponse(await svc.getUser(appIdOf(req.actor), req.params.id)),
  );

  app.patch(
    `${P}/users/:id`,
    {
      config: { ...platform, bodyKey: 'user' },
      schema: {
        tags,
        security,
        summary: 'Update a user',
        params: UserParams,
        body: UserPatch,
        response: { 200: PlatformUser, ...errors, 409: ChatErrorBody },
      },
    },
    async (req) => userResponse(await svc.updateUser(appIdOf(req.actor), req.params.id, req.body)),
  );

  app.delete(
    `${P}/users/:id`,
    {
      config: platform,
      schema: {
        tags,
        security,
        summary: 'Delete a user',
        params: UserParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.deleteUser(appIdOf(req.actor), req.params.id);
      return {};
    },
  );

  app.get(
    `${P}/users/:id/login`,
    {
      config: platform,
      schema: {
        tags,
        security,
        summary: 'A single sign-on link for the user (single use, 5 minutes)',
        params: UserParams,
        response: { 200: Type.Object({ url: Type.String() }), ...errors },
      },
    },
    async (req) => ({ url: await svc.loginLink(appIdOf(req.actor), req.params.id) }),
  );
};
