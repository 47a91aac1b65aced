/**
 * Card item content is rich text from the card builder's editor (docs/product-decisions.md). It is shown to every member
 * and to anonymous visitors, so the server keeps only an allow-list of formatting: no scripts, no event
 * attributes, no styles, and links only to web and mail addresses.
 */
import sanitizeHtml from 'sanitize-html';

export const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'code',
  'pre',
] as const;

const LINK_SCHEME = /^\s*(https?|mailto):/i;

const options: sanitizeHtml.IOptions = {
  allowedTags: [...ALLOWED_TAGS],
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  // `//evil.example` is a link to another site in disguise; a relative link has no meaning in an item.
  allowProtocolRelative: false,
  // A dropped tag keeps its text, except those whose content is code or markup rather than prose.
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object', 'svg'],
  // Every link opens in a new tab without handing the opened page a reference back to ours. A link must
  // name its scheme: a relative one would point into this app, which an item has no business doing.
  transformTags: {
    // Only href survives the allow-list on a link; the attributes are written in one order, so a clean link
    // comes back exactly as it went in.
    a: (tagName, { href }) => ({
      tagName,
      attribs: {
        ...(href !== undefined && LINK_SCHEME.test(href) ? { href } : {}),
        rel: 'noopener noreferrer',
        target: '_blank',
      },
    }),
  },
};

/**
 * The content with everything outside the allow-list removed. Well-formed clean content (what the editor
 * produces) comes back unchanged, so saving a card again does not rewrite its items.
 */
export function sanitizeItemContent(html: string): string {
  return sanitizeHtml(html, options);
}
