import { fieldSentence, unprocessable, type FieldIssue } from '../../../core/http/errors.js';
import { t } from '../../../core/i18n/catalogue.js';

/**
 * How label names are read, everywhere a label is given (contacts, conversations, campaigns,
 * automation actions, list filters): the one home of label normalisation.
 */

/** Labels are stored trimmed and lower-cased (Chatwoot's taggings force lower case). */
const normalizeLabel = (raw: string) => raw.trim().toLowerCase();

/**
 * Validates and normalizes a label set to store: each label trimmed, lower-cased, 1..255
 * characters, no commas (the list delimiter); duplicates collapse. Sorted. 422 naming each bad item.
 */
export function normalizeLabels(labels: readonly string[], field = 'labels'): string[] {
  const out = new Set<string>();
  const problems: FieldIssue[] = [];
  labels.forEach((raw, i) => {
    const label = normalizeLabel(raw);
    if (label === '') problems.push({ field: `${field}.${i}`, message: "can't be blank" });
    else if (label.length > 255)
      problems.push({ field: `${field}.${i}`, message: 'is too long (maximum is 255 characters)' });
    else if (label.includes(',')) problems.push({ field: `${field}.${i}`, message: 'must not contain commas' });
    else out.add(label);
  });
  if (problems.length > 0)
    throw unprocessable(t('Invalid labels: %{problems}', { problems: problems.map(fieldSentence) }), problems);
  return [...out].sort();
}

/**
 * Labels used as a list filter, leniently: `labels=a,b` splits on commas, blanks are dropped,
 * case is ignored. `undefined` when nothing is left (no filter).
 */
export function normalizeLabelFilter(labels: readonly string[] | undefined): string[] | undefined {
  if (!labels) return undefined;
  const out = new Set(
    labels
      .flatMap((l) => l.split(','))
      .map(normalizeLabel)
      .filter((l) => l !== ''),
  );
  return out.size > 0 ? [...out] : undefined;
}
