import { describe, expect, it } from 'vitest';
import { guideHtmlOf } from '../../src/docs/guide-pages.js';

describe('a guide rendered for /docs/guides', () => {
  const names = new Set(['operators']);

  it('escapes any HTML written in the Markdown and drops script links', () => {
    const html = guideHtmlOf([
      '<script>alert(1)</script>',
      '',
      '<img src=x onerror=alert(1)> and <a href="https://evil.example">raw</a>',
      '',
      '[run](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:msgbox)',
    ].join('\n'), names);
    expect(html).not.toMatch(/<script|<img|<a href="https:\/\/evil|href="(javascript|data|vbscript):/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('turns links to other guides into their pages, keeps outside and anchor links, and keeps only the text of links into the repository', () => {
    const html = guideHtmlOf('[ops](operators.md#backups) [x](other.md) [std](https://www.standardwebhooks.com) [here](#top) [code](../src/app.ts) [readme](../README.md#configuration)', names);
    expect(html).toBe('<p><a href="/docs/guides/operators#backups">ops</a> x <a href="https://www.standardwebhooks.com" rel="noopener noreferrer">std</a> '
      + '<a href="#top">here</a> code <a href="/docs/guides/readme#configuration">readme</a></p>\n');
  });

  it('gives headings the anchors GitHub gives them', () => {
    expect(guideHtmlOf('## Webhooks: administration\n\n## `/metrics` and more\n\n## Webhooks: administration', names))
      .toBe('<h2 id="webhooks-administration">Webhooks: administration</h2>\n<h2 id="metrics-and-more"><code>/metrics</code> and more</h2>\n'
        + '<h2 id="webhooks-administration-1">Webhooks: administration</h2>\n');
  });
});
