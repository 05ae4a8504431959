/**
 * Canned responses in the composer (Chatwoot's `/`): a `/` at the start of a word, before the
 * caret, opens them filtered by what follows it; choosing one replaces that word with its text.
 */
export interface CannedQuery {
  /** Where the `/` is. */
  start: number;
  /** What follows it, up to the caret. */
  term: string;
}

export function cannedQuery(text: string, caret: number): CannedQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)\/([^\s/]*)$/.exec(before);
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, term: match[2]! };
}

/** The text with the `/word` replaced by a canned response's content, and where the caret goes. */
export function insertCanned(text: string, query: CannedQuery, caret: number, content: string) {
  const next = text.slice(0, query.start) + content + text.slice(caret);
  return { text: next, caret: query.start + content.length };
}
