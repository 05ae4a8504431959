import { render, t, type Text } from '../../../core/i18n/catalogue.js';
import type { Language } from '../../../core/i18n/language.js';
import type { ConversationBundle } from '../conversations/conversations.presenter.js';
import { presentSender, type MessageView } from '../messages/messages.presenter.js';

export interface RuleEmailInput {
  rule: { id: number; name: string };
  eventName: string;
  bundle: ConversationBundle;
  /** The latest messages the contact sees (no private notes, no activities), oldest first. */
  messages: MessageView[];
  publicUrl: string;
  /** The account's language (its locale). */
  language: Language;
}

const oneLine = (s: string, max = 200) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
};

/**
 * The e-mail of a `send_email` action: which rule matched which conversation, the conversation's
 * state (status, priority, inbox, contact, assignee, team, labels), a link to it, and its latest
 * messages as a plain-text transcript; its words in the account's language.
 */
export function composeRuleEmail(input: RuleEmailInput): { subject: string; text: string } {
  const { bundle, rule } = input;
  const say = (text: Text) => render(text, input.language);
  const c = bundle.conversation;
  const id = c.display_id;
  const contact = bundle.contact
    ? `${bundle.contact.name || say('Unnamed contact')}${bundle.contact.email ? ` <${bundle.contact.email}>` : ''}`
    : say('unknown');
  const lines = [
    say(
      t('Automation rule "%{rule}" ran on %{event} for conversation #%{id}.', {
        rule: oneLine(rule.name),
        event: input.eventName,
        id,
      }),
    ),
    '',
    say(t('Conversation #%{id}', { id })),
    say(t('Status: %{value}', { value: c.status })),
    say(c.priority ? t('Priority: %{value}', { value: c.priority }) : 'Priority: none'),
    say(t('Inbox: %{value}', { value: bundle.inbox?.name ?? c.inbox_id })),
    say(t('Contact: %{value}', { value: contact })),
    say(bundle.assignee ? t('Assignee: %{value}', { value: bundle.assignee.name }) : 'Assignee: none'),
    say(bundle.team ? t('Team: %{value}', { value: bundle.team.name }) : 'Team: none'),
    say(bundle.labels.length > 0 ? t('Labels: %{value}', { value: bundle.labels.join(', ') }) : 'Labels: none'),
    say(t('Link: %{value}', { value: `${input.publicUrl}/app/accounts/${c.account_id}/conversations/${id}` })),
    '',
    say(input.messages.length > 0 ? 'Latest messages:' : 'No messages yet.'),
    ...input.messages.map((view) => {
      const who = view.sender ? presentSender(view.sender).name : say('System');
      const at = new Date(view.message.created_at).toISOString();
      return `[${at}] ${who}: ${view.message.content ?? say('(attachment)')}`;
    }),
  ];
  return {
    subject: say(t('Conversation #%{id}: %{rule}', { id, rule: oneLine(rule.name, 150) })),
    text: `${lines.join('\n')}\n`,
  };
}
