import { Type, type Static } from '@sinclair/typebox';
import { HttpUrl, Nullable } from '../../../core/http/schemas.js';

const Url = HttpUrl();

export const AgentBotBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  outgoing_url: Url,
});
export type AgentBotBody = Static<typeof AgentBotBody>;

export const AgentBotPatch = Type.Partial(AgentBotBody);
export type AgentBotPatch = Static<typeof AgentBotPatch>;

export const AgentBotSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  outgoing_url: Nullable(Type.String()),
  bot_type: Type.String(),
  account_id: Nullable(Type.Integer()),
  system_bot: Type.Boolean(),
  thumbnail: Type.String(),
  access_token: Type.Optional(Type.String()),
  secret: Type.Optional(Type.String({ description: 'Signs the deliveries the bot receives (webhook-signature)' })),
  created_at: Type.String(),
});

export const SetInboxBotBody = Type.Object({ agent_bot: Nullable(Type.Integer({ minimum: 1, maximum: 2147483647 })) });
