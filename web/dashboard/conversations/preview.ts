/**
 * A message as one line of plain text (the conversation list, a contact's conversations): the
 * marks of Markdown are not shown, links keep their text, and runs of spaces and lines become one space.
 */
export function plainLine(markdown: string | null | undefined): string {
  return (
    (markdown ?? '')
      .replace(/(\*\*|__|~~|\*|`)(\S(?:.*?\S)?)\1/g, '$2')
      // A single underscore emphasises only outside a word (order_id stays).
      .replace(/(?<!\w)_(\S(?:.*?\S)?)_(?!\w)/g, '$1')
      .replace(/^\s{0,3}(#{1,6}|>)\s*/gm, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
