import type { Language } from '../../core/i18n/language.js';
import type { Q } from '../context.js';
import { financeListener } from '../events.js';
import { notificationWords } from '../modules/notifications/notifications.i18n.js';
import type { NotificationsService } from '../modules/notifications/notifications.service.js';

/** What a payment notice needs to say, read from the paid bill or invoice itself. */
export interface PaidRecord {
  party: string | null;
  amountCents: number;
  currency: string | null;
}

/** Where the paid records are read (the bills and invoices modules). */
export interface PaidRecords {
  bill(q: Q, accountId: number, id: number): Promise<PaidRecord | undefined>;
  invoice(q: Q, accountId: number, id: number): Promise<PaidRecord | undefined>;
}

/**
 * `payment_confirmed` notifications: when a bill (internal `bill.paid`) or an invoice
 * (`invoice.paid`) is paid, every member of the account whose `paymentConfirmed` preference is on
 * gets one. Written in the event's transaction, so exactly once per event; the dedupe key
 * `payment_confirmed:<bill|invoice>:<id>` also keeps it once per paid bill or invoice. The text is
 * built from the record itself (read by id, in cents), never from the webhook body.
 */
export function notificationsListener(
  notifications: NotificationsService,
  records: PaidRecords,
  /** The account's language (`accounts.locale`): the notice is written in it. */
  languageOf: (q: Q, accountId: number) => Promise<Language>,
) {
  return financeListener({
    name: 'notifications',
    events: ['bill.paid', 'invoice.paid'],
    async handle(trx, event) {
      if (event.accountId === null) return;
      const isBill = event.name === 'bill.paid';
      const id = 'billId' in event.refs ? event.refs.billId : event.refs.invoiceId;
      const paid = isBill
        ? await records.bill(trx, event.accountId, id)
        : await records.invoice(trx, event.accountId, id);
      if (!paid) return; // deleted since
      const words = notificationWords(await languageOf(trx, event.accountId));
      await notifications.notifyMembers(trx, {
        accountId: event.accountId,
        type: 'payment_confirmed',
        preference: 'payment_confirmed',
        title: words.paymentTitle(isBill),
        message: words.payment({ isBill, party: paid.party, amountCents: paid.amountCents, currency: paid.currency }),
        data: JSON.stringify(
          isBill
            ? { billId: String(id), eventId: String(event.id) }
            : { invoiceId: String(id), eventId: String(event.id) },
        ),
        dedupeKey: `payment_confirmed:${isBill ? 'bill' : 'invoice'}:${id}`,
        createdAt: Date.now(),
      });
    },
  });
}
