import { invalidField, notFound } from '../../../core/http/errors.js';
import { instantOf, type Timestamp } from '../../../core/http/timestamps.js';
import { parseJsonObject, utcDate } from '../../../core/time.js';
import type { AccountContext, Q } from '../../context.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { ContactsService } from '../contacts/contacts.service.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import { DEFAULT_CURRENCY, normalizeCurrency } from './pipeline-cards.money.js';

/** The services a card's references are checked through. */
export interface CardReferenceServices {
  accounts: AccountsService;
  agents: AgentsService;
  contacts: ContactsService;
  conversations: ConversationsService;
}

/**
 * Checks the records a card body names, in the account (docs/spec/decisions.md §7 and 0003): a contact, an
 * owner (an agent or administrator of the account) and a conversation (by its number, visible to
 * the caller) that are not there answer 404, exactly like an unknown id in a path.
 */
export class CardReferences {
  constructor(private readonly services: CardReferenceServices) {}

  async contact(q: Q, ctx: AccountContext, id: number): Promise<number> {
    return (await this.services.contacts.get(ctx, id, q)).id;
  }

  async owner(q: Q, ctx: AccountContext, userId: number): Promise<{ id: number; name: string }> {
    const [agent] = await this.services.agents.byIds(q, ctx.accountId, [userId]);
    if (!agent) throw notFound('Owner');
    return { id: agent.id, name: agent.name };
  }

  /** The conversation's internal id and its contact. */
  async conversation(q: Q, ctx: AccountContext, displayId: number): Promise<{ id: number; contactId: number }> {
    const conversation = await this.services.conversations.get(ctx, displayId, q);
    return { id: conversation.id, contactId: conversation.contact_id };
  }

  /** The account's currency (`custom_attributes.currency`, set through the platform interface), else BRL. */
  async defaultCurrency(q: Q, accountId: number): Promise<string> {
    const account = await this.services.accounts.find(q, accountId);
    const configured = parseJsonObject(account?.custom_attributes).currency;
    return (typeof configured === 'string' && normalizeCurrency(configured)) || DEFAULT_CURRENCY;
  }
}

/** A currency code of the request, upper-cased, or a 422 naming the field. */
export function currencyOf(code: string, field: string): string {
  const currency = normalizeCurrency(code);
  if (!currency) throw invalidField(field, 'is not a known ISO 4217 currency code');
  return currency;
}

/**
 * `deadline` (any timestamp input: core/http/timestamps.ts) as the card's close date: the UTC date
 * of the instant it names, so 2031-09-15T23:30:00-03:00 closes on 2031-09-16 and 2031-09-15T09:00:00
 * (no offset, so UTC) on 2031-09-15.
 */
export function closeDateOf(deadline: Timestamp): string {
  return utcDate(instantOf(deadline, 'deadline'));
}
