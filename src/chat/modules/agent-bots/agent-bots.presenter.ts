import { toIso } from '../../../core/time.js';
import type { AgentBot } from '../../db/schema.js';

/** With `accessToken` (administrators, platform app): also the token and the delivery signing secret. */
export function presentAgentBot(bot: AgentBot, accessToken?: string) {
  return {
    id: bot.id,
    name: bot.name,
    description: bot.description,
    outgoing_url: bot.outgoing_url,
    bot_type: bot.bot_type,
    account_id: bot.account_id,
    system_bot: bot.account_id === null,
    thumbnail: '',
    ...(accessToken !== undefined ? { access_token: accessToken, secret: bot.secret ?? '' } : {}),
    created_at: toIso(bot.created_at),
  };
}
