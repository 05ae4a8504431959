import type { ConversationBundle } from '../conversations/conversations.presenter.js';
import { presentSender, type MessageView } from '../messages/messages.presenter.js';

export interface RuleEmailInput {
  rule: { id: number; name: string };
  eventName: string;
  bundle: ConversationBundle;
  /** The latest messages the contact sees (no private notes, no activities), oldest first. */
  messages: MessageView[];
  publicUrl: string;
}

const oneLine = (s: string, max = 200) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
};

/**
 * The e-mail of a `send_email` action: which rule matched which conversation, the conversation's
 * state (status, priority, inbox, contact, assignee, team, labels), a link to it, and its latest
 * messages as a plain-text transcript.
 */
export function composeRuleEmail(input: RuleEmailInput): { subject: string; text: string } {
  const { bundle, rule } = input;
  const c = bundle.conversation;
  const contact = bundle.contact
    ? `${bundle.contact.name || 'Unnamed contact'}${bundle.contact.email ? ` <${bundle.contact.email}>` : ''}`
    : 'unknown';
  const lines = [
    `Automation rule "${oneLine(rule.name)}" ran on ${input.eventName} for conversation #${c.display_id}.`,
    '',
    `Conversation #${c.display_id}`,
    `Status: ${c.status}`,
    `Priority: ${c.priority ?? 'none'}`,
    `Inbox: ${bundle.inbox?.name ?? c.inbox_id}`,
    `Contact: ${contact}`,
    `Assignee: ${bundle.assignee ? bundle.assignee.name : 'none'}`,
    `Team: ${bundle.team ? bundle.team.name : 'none'}`,
    `Labels: ${bundle.labels.length > 0 ? bundle.labels.join(', ') : 'none'}`,
    `Link: ${input.publicUrl}/app/accounts/${c.account_id}/conversations/${c.display_id}`,
    '',
    input.messages.length > 0 ? 'Latest messages:' : 'No messages yet.',
    ...input.messages.map((view) => {
      const who = view.sender ? presentSender(view.sender).name : 'System';
      const at = new Date(view.message.created_at).toISOString();
      return `[${at}] ${who}: ${view.message.content ?? '(attachment)'}`;
    }),
  ];
  return { subject: `Conversation #${c.display_id}: ${oneLine(rule.name, 150)}`, text: `${lines.join('\n')}\n` };
}
