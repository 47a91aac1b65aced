import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALLOWED_TAGS, sanitizeItemContent } from './sanitize.ts';

describe('sanitizeItemContent', () => {
  it('keeps the formatting of the allow-list as it is', () => {
    const clean = [
      '<h1>Title</h1><h2>Sub</h2><h3>Part</h3><h4>Step</h4>',
      '<p>Check <strong>all</strong> <b>four</b> <em>wheels</em>, <i>tyres</i>, <u>nuts</u> and <s>hubcaps</s>.<br />Then sign.</p>',
      '<ul><li>One</li></ul><ol><li>Two</li></ol>',
      '<blockquote>Quote</blockquote><pre><code>code()</code></pre>',
      '<p>1 &lt; 2 &amp;&amp; 3 &gt; 2</p>',
    ];
    for (const html of clean) expect(sanitizeItemContent(html)).toBe(html);
  });

  it('removes a <script> with its content, and other executable or embedding elements', () => {
    expect(sanitizeItemContent('<p>Hi<script>alert(1)</script> there</p>')).toBe('<p>Hi there</p>');
    expect(sanitizeItemContent('<SCRIPT src="https://evil.example/x.js"></SCRIPT>ok')).toBe('ok');
    expect(sanitizeItemContent('<svg><script>alert(1)</script></svg><p>ok</p>')).toBe('<p>ok</p>');
    expect(sanitizeItemContent('<iframe src="https://evil.example"></iframe><style>p{}</style>x')).toBe('x');
    expect(sanitizeItemContent('<img src="x.png"><object data="x"></object>y')).toBe('y');
  });

  it('removes event-handler attributes such as onerror, and style and class', () => {
    expect(sanitizeItemContent('<img src=x onerror="alert(1)">')).toBe('');
    expect(sanitizeItemContent('<p onclick="steal()" style="color:red" class="x">Text</p>')).toBe(
      '<p>Text</p>',
    );
    expect(sanitizeItemContent('<a href="https://ok.example" onmouseover="alert(1)">x</a>')).toBe(
      '<a href="https://ok.example" rel="noopener noreferrer" target="_blank">x</a>',
    );
  });

  it('never keeps a javascript: (or data:, relative or protocol-relative) link, however it is written', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java&#x09;script:alert(1)',
      '&#106;avascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'vbscript:msgbox(1)',
      '//evil.example/',
      '/api/delete-card',
    ]) {
      const out = sanitizeItemContent(`<a href="${href}">link</a>`);
      expect(out, href).toBe('<a rel="noopener noreferrer" target="_blank">link</a>');
    }
  });

  it('keeps http, https and mailto links, opening them in a new tab without a way back', () => {
    expect(
      sanitizeItemContent('<a href="https://example.com/a?b=1&amp;c=2" target="_self" rel="opener">x</a>'),
    ).toBe('<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">x</a>');
    expect(sanitizeItemContent('<a href="http://example.com">x</a>')).toBe(
      '<a href="http://example.com" rel="noopener noreferrer" target="_blank">x</a>',
    );
    expect(sanitizeItemContent('<a href="mailto:qa@example.com">x</a>')).toBe(
      '<a href="mailto:qa@example.com" rel="noopener noreferrer" target="_blank">x</a>',
    );
  });

  it('keeps the text of tags outside the allow-list', () => {
    expect(sanitizeItemContent('<h5>Small</h5><table><tr><td>Cell</td></tr></table><div>Block</div>')).toBe(
      'SmallCellBlock',
    );
  });

  // Text and attribute values come out escaped, so every `<` of an answer opens a real tag.
  const allowedTag = new RegExp(
    `^</?(${ALLOWED_TAGS.join('|')})((?:\\s+(?:href|rel|target)="[^"<>]*")*)\\s*/?>$`,
  );
  function expectOnlyAllowed(html: string) {
    for (const [found] of html.matchAll(/<[^>]*>?/g)) {
      const match = allowedTag.exec(found);
      expect(match, found).not.toBeNull();
      const href = /href="([^"]*)"/.exec(match![2]!)?.[1];
      if (href !== undefined) expect(href).toMatch(/^(https?|mailto):/i);
    }
  }

  it('answers only allow-listed tags, with only href, rel and target, and safe links, from any soup (property)', () => {
    const pieces = fc.constantFrom(
      '<p>',
      '</p>',
      '<a href="',
      'javascript:',
      'https://x.example',
      '">',
      '</a>',
      '<script>',
      '</script>',
      '<img src=x onerror=alert(1)>',
      ' onload="x()"',
      '<',
      '>',
      '"',
      "'",
      '&lt;',
      'text',
      '<svg onload=alert(1)>',
      '<!--',
      '-->',
      '<a href=javascript:alert(1) >',
      '<STRONG class=x>',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), (parts) => {
        const out = sanitizeItemContent(parts.join(''));
        expectOnlyAllowed(out);
        // Saved again (read back by the builder and resubmitted), it stays within the allow-list.
        expectOnlyAllowed(sanitizeItemContent(out));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives back the editor’s well-formed content unchanged, so saving a card again changes nothing (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'Z', ' ', '&', '<', '>', '"', "'", 'é', '1'),
      minLength: 1,
      maxLength: 8,
    });
    const escaped = text.map((t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    const inline: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        escaped,
        fc.constant('<br />'),
        fc
          .tuple(
            fc.constantFrom('strong', 'b', 'em', 'i', 'u', 's', 'code'),
            fc.array(tie('node'), { maxLength: 3 }),
          )
          .map(([tag, kids]) => `<${tag}>${kids.join('')}</${tag}>`),
        fc
          .tuple(fc.constantFrom('https://example.com/a?b=1&amp;c=2', 'mailto:qa@example.com'), escaped)
          .map(([href, label]) => `<a href="${href}" rel="noopener noreferrer" target="_blank">${label}</a>`),
      ),
    })).node;
    const line = fc.array(inline, { minLength: 1, maxLength: 4 }).map((kids) => kids.join(''));
    const block = fc.oneof(
      fc
        .tuple(fc.constantFrom('p', 'h1', 'h2', 'h3', 'h4'), line)
        .map(([tag, body]) => `<${tag}>${body}</${tag}>`),
      line.map((body) => `<blockquote><p>${body}</p></blockquote>`),
      fc
        .tuple(fc.constantFrom('ul', 'ol'), fc.array(line, { minLength: 1, maxLength: 3 }))
        .map(([tag, items]) => `<${tag}>${items.map((item) => `<li><p>${item}</p></li>`).join('')}</${tag}>`),
      escaped.map((code) => `<pre><code>${code}</code></pre>`),
    );
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 5 }), (blocks) => {
        const html = blocks.join('');
        expect(sanitizeItemContent(html)).toBe(html);
      }),
      { numRuns: 2000 },
    );
  });
});
