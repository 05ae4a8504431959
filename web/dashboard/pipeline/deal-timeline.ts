/**
 * A deal's timeline entry (docs/spec/decisions.md §7) as a sentence to say: the catalogue key
 * under `deal.timeline.` and its parameters. Read leniently: `data` is free JSON, an unknown type still
 * says something.
 */

export interface EntryLike {
  type: string;
  data: Record<string, unknown>;
}

export interface Sentence {
  key:
    | 'created'
    | 'stageChange'
    | 'noteAdded'
    | 'won'
    | 'wonWithValue'
    | 'lost'
    | 'lostWithReason'
    | 'reopened'
    | 'ownerChanged'
    | 'ownerRemoved'
    | 'valueChanged'
    | 'attachmentAdded'
    | 'attachmentRemoved'
    | 'scoreOverridden'
    | 'other';
  params: Record<string, string | number>;
  /** A note's text, said under the sentence. */
  quote?: string;
  /** Amounts to format in the UI's language (value entries). */
  money?: { from?: { value: number; currency: string }; to: { value: number; currency: string } };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const nameOf = (value: unknown): string =>
  typeof value === 'object' && value !== null ? text((value as Record<string, unknown>).name) : '';
const amount = (value: unknown): number | null => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

export function describeEntry(entry: EntryLike): Sentence {
  const d = entry.data;
  switch (entry.type) {
    case 'created':
      return { key: 'created', params: {} };
    case 'stage_change':
      return { key: 'stageChange', params: { from: nameOf(d.from_stage), to: nameOf(d.to_stage) } };
    case 'note_added':
      return { key: 'noteAdded', params: {}, quote: text(d.content) };
    case 'deal_won': {
      const value = amount(d.value);
      const note = text(d.won_note);
      return value === null
        ? { key: 'won', params: {}, ...(note ? { quote: note } : {}) }
        : {
            key: 'wonWithValue',
            params: {},
            money: { to: { value, currency: text(d.currency) } },
            ...(note ? { quote: note } : {}),
          };
    }
    case 'deal_lost': {
      const reason = text(d.lost_reason);
      return reason ? { key: 'lostWithReason', params: { reason } } : { key: 'lost', params: {} };
    }
    case 'deal_reopened':
      return { key: 'reopened', params: {} };
    case 'owner_changed': {
      const to = nameOf(d.to_owner);
      return to ? { key: 'ownerChanged', params: { owner: to } } : { key: 'ownerRemoved', params: {} };
    }
    case 'value_changed': {
      const from = amount(d.from);
      const to = amount(d.to) ?? 0;
      const currency = text(d.currency);
      return {
        key: 'valueChanged',
        params: {},
        money: {
          ...(from === null ? {} : { from: { value: from, currency: text(d.from_currency) || currency } }),
          to: { value: to, currency },
        },
      };
    }
    case 'attachment_added':
      return { key: 'attachmentAdded', params: { file: text(d.file_name) } };
    case 'attachment_removed':
      return { key: 'attachmentRemoved', params: { file: text(d.file_name) } };
    case 'score_overridden':
      return { key: 'scoreOverridden', params: { from: amount(d.from) ?? 0, to: amount(d.to) ?? 0 } };
    default:
      return { key: 'other', params: { type: entry.type } };
  }
}
