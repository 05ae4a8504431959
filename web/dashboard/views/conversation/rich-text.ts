import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

/**
 * Message text as people write it (Chatwoot's messages are Markdown): rendered by markdown-it
 * (the renderer the server's help center uses, with raw HTML off) and then cleaned by DOMPurify,
 * so nothing a customer types can put script or markup of its own on the page. Links open in a
 * new tab without handing this page to the site. Loaded with the conversation screen only.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true });

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
});

const MESSAGE_TAGS = [
  'a',
  'b',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'li',
  'ol',
  'p',
  'pre',
  's',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];

/** Markdown as safe HTML for a message bubble. */
export function markdownToHtml(text: string): string {
  return DOMPurify.sanitize(markdown.render(text), {
    ALLOWED_TAGS: MESSAGE_TAGS,
    ALLOWED_ATTR: ['href', 'target', 'rel', 'title'],
  });
}

/** An e-mail's HTML, cleaned for a sandboxed frame: its inline styles set aside (see EmailFrame.vue). */
export interface CleanEmail {
  /** The body's HTML, with `style` attributes moved to `data-ponte-style`. */
  html: string;
  /** The text of its `<style>` elements. */
  css: string;
}

export const STYLE_DATA = 'data-ponte-style';

/**
 * Cleans an e-mail's HTML: no script, form, frame, object or event handler survives DOMPurify.
 * The page's Content-Security-Policy refuses inline styles, in the frame (which inherits it) and
 * even while the HTML is parsed, so before parsing, `style` attributes are renamed and `<style>`
 * elements taken out; EmailFrame.vue applies both through the CSSOM, which the policy allows.
 * (A `style` written inside another attribute's value may be renamed too: harmless.)
 */
export function cleanEmailHtml(html: string): CleanEmail {
  const css: string[] = [];
  const unstyled = html
    .replace(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi, (_all, text: string) => {
      css.push(text);
      return '';
    })
    .replace(/(<[a-z][^>]*?\s)style(\s*=)/gi, `$1${STYLE_DATA}$2`);
  const clean = DOMPurify.sanitize(unstyled, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'base', 'link', 'meta'],
    FORBID_ATTR: ['style'],
    ADD_ATTR: [STYLE_DATA],
    WHOLE_DOCUMENT: false,
  });
  return { html: clean, css: css.join('\n') };
}
