import { defineWords } from '../../../core/i18n/catalogue.js';
import type { Language } from '../../../core/i18n/language.js';
import { centsText } from '../../calendar.js';

/**
 * The titles and messages of the notifications the service writes about bills and payments, in
 * the account's language (`accounts.locale`). A notification keeps the language it was written in:
 * the text is stored when it is created. (The accountant's own notices are in accountant.i18n.ts.)
 */
export interface BillNotice {
  /** `Power Co (March power)`, or just the supplier. */
  what: string;
  amountCents: number;
  currency: string;
  dueDate: string;
}

export interface PaymentNotice {
  isBill: boolean;
  party: string | null;
  amountCents: number;
  currency: string | null;
}

export interface NotificationWords {
  billDueSoonTitle: string;
  billDueSoon(bill: BillNotice): string;
  billOverdueTitle: string;
  billOverdue(bill: BillNotice): string;
  paymentTitle(isBill: boolean): string;
  payment(notice: PaymentNotice): string;
}

const price = (cents: number, currency: string | null) => [currency, centsText(cents)].filter(Boolean).join(' ');

const en: NotificationWords = {
  billDueSoonTitle: 'Bill due soon',
  billDueSoon: (b) => `Bill ${b.what} of ${price(b.amountCents, b.currency)} is due on ${b.dueDate}`,
  billOverdueTitle: 'Bill overdue',
  billOverdue: (b) => `Bill ${b.what} of ${price(b.amountCents, b.currency)} was due on ${b.dueDate} and is not paid`,
  paymentTitle: (isBill) => (isBill ? 'Bill payment confirmed' : 'Invoice payment confirmed'),
  payment: (p) =>
    [
      p.isBill ? 'Bill' : 'Invoice',
      p.party && (p.isBill ? `from ${p.party}` : `to ${p.party}`),
      `of ${price(p.amountCents, p.currency)}`,
      'was paid',
    ]
      .filter(Boolean)
      .join(' '),
};

/** R$ 1.234,56 (Intl); a code Intl does not take as a currency follows a plain pt-BR number. */
function ptPrice(cents: number, currency: string | null): string {
  const plain = () =>
    new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100);
  if (!currency) return plain();
  try {
    return new Intl.NumberFormat('pt-BR', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${plain()} ${currency}`;
  }
}

/** 2025-03-15 -> 15/03/2025. */
const ptDate = (day: string) => day.split('-').reverse().join('/');

const ptBR: NotificationWords = {
  billDueSoonTitle: 'Conta a vencer',
  billDueSoon: (b) => `A conta ${b.what} de ${ptPrice(b.amountCents, b.currency)} vence em ${ptDate(b.dueDate)}`,
  billOverdueTitle: 'Conta vencida',
  billOverdue: (b) =>
    `A conta ${b.what} de ${ptPrice(b.amountCents, b.currency)} venceu em ${ptDate(b.dueDate)} e não foi paga`,
  paymentTitle: (isBill) => (isBill ? 'Pagamento de conta confirmado' : 'Pagamento de fatura confirmado'),
  payment: (p) =>
    [
      p.isBill ? 'A conta' : 'A fatura',
      p.party && (p.isBill ? `de ${p.party}` : `para ${p.party}`),
      `no valor de ${ptPrice(p.amountCents, p.currency)}`,
      'foi paga',
    ]
      .filter(Boolean)
      .join(' '),
};

/** A word table of the catalogue (core/i18n/catalogue.ts): the completeness test checks both languages. */
export const notificationWords: (language: Language) => NotificationWords = defineWords('finance notifications', {
  en,
  'pt-BR': ptBR,
});
