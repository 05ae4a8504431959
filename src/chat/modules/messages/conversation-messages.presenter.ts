import { parseJsonObject, toIso } from '../../../core/time.js';
import { presentAgent } from '../agents/agents.presenter.js';
import { presentContactSummary, type ConversationMeta } from '../conversations/conversations.presenter.js';
import { presentMessage, type MessageView } from './messages.presenter.js';

/** GET …/messages: `{meta: {labels, additional_attributes, contact, assignee, …_last_seen_at}, payload}` (Chatwoot). */
export function presentMessagePage(meta: ConversationMeta, views: MessageView[]) {
  const c = meta.conversation;
  return {
    meta: {
      labels: meta.labels,
      additional_attributes: parseJsonObject(c.additional_attributes),
      contact: meta.contact ? presentContactSummary(meta.contact) : null,
      assignee: meta.assignee ? presentAgent(meta.assignee) : null,
      agent_last_seen_at: toIso(c.agent_last_seen_at),
      assignee_last_seen_at: toIso(c.assignee_last_seen_at),
    },
    payload: views.map((v) => presentMessage(v)),
  };
}
