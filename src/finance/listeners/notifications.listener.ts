import type { EventListener, OutboxEvent } from '../../core/events/dispatcher.js';
import { centsText } from '../calendar.js';
import type { FinanceDatabase } from '../db/schema.js';
import type { NotificationsService } from '../modules/notifications/notifications.service.js';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The paid object of a `bill.paid` / `invoice.paid` event (its `data`, as the API presents it). */
function paidObject(event: OutboxEvent) {
  const data = event.payload.data;
  if (!data || typeof data !== 'object') return null;
  const o = data as Record<string, unknown>;
  const id = text(o.id);
  if (!id) return null;
  const cents = typeof o.amount === 'number' && Number.isFinite(o.amount) ? Math.round(o.amount * 100) : null;
  const price = cents === null ? null : [text(o.currency), centsText(cents)].filter(Boolean).join(' ');
  return { id, o, price };
}

/**
 * `payment_confirmed` notifications: when a bill (internal `bill.paid`) or an invoice
 * (`invoice.paid`) is paid, every member of the account whose `paymentConfirmed` preference is on
 * gets one. Written inside the dispatch transaction, so exactly once per event; the dedupe key
 * `payment_confirmed:<bill|invoice>:<id>` also keeps it once per paid bill or invoice. The text
 * comes from the event's `data` (the bill or invoice as it was when paid); no other lookup.
 */
export function notificationsListener(notifications: NotificationsService): EventListener<FinanceDatabase> {
  return {
    name: 'notifications',
    async inTransaction(trx, event) {
      if (event.accountId === null || (event.name !== 'bill.paid' && event.name !== 'invoice.paid')) return;
      const paid = paidObject(event);
      if (!paid) return;
      const isBill = event.name === 'bill.paid';
      const who = isBill ? text(paid.o.supplier) : text(paid.o.customer);
      const message = [isBill ? 'Bill' : 'Invoice', who && (isBill ? `from ${who}` : `to ${who}`), paid.price && `of ${paid.price}`, 'was paid']
        .filter(Boolean)
        .join(' ');
      await notifications.notifyMembers(trx, {
        accountId: event.accountId,
        type: 'payment_confirmed',
        preference: 'payment_confirmed',
        title: isBill ? 'Bill payment confirmed' : 'Invoice payment confirmed',
        message,
        data: JSON.stringify(isBill ? { billId: paid.id, eventId: String(event.id) } : { invoiceId: paid.id, eventId: String(event.id) }),
        dedupeKey: `payment_confirmed:${isBill ? 'bill' : 'invoice'}:${paid.id}`,
        createdAt: Date.now(),
      });
    },
  };
}
