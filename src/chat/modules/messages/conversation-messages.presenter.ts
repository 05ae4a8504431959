import { parseJsonObject, toIso } from '../../../core/time.js';
import { presentAgent } from '../agents/agents.presenter.js';
import { presentContactSummary, type ConversationBundle } from '../conversations/conversations.presenter.js';
import { presentMessage, type MessageView } from './messages.presenter.js';

/** GET …/messages: `{meta: {labels, additional_attributes, contact, assignee, …_last_seen_at}, payload}` (Chatwoot). */
export function presentMessagePage(bundle: ConversationBundle, views: MessageView[]) {
  const c = bundle.conversation;
  return {
    meta: {
      labels: bundle.labels,
      additional_attributes: parseJsonObject(c.additional_attributes),
      contact: bundle.contact ? presentContactSummary(bundle.contact) : null,
      assignee: bundle.assignee ? presentAgent(bundle.assignee) : null,
      agent_last_seen_at: toIso(c.agent_last_seen_at),
      assignee_last_seen_at: toIso(c.assignee_last_seen_at),
    },
    payload: views.map((v) => presentMessage(v)),
  };
}
