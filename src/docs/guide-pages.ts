import { readdirSync, readFileSync } from 'node:fs';
import MarkdownIt, { type MarkdownIt as Markdown } from 'markdown-it';

// The guides of docs/ (and the repository's README, as `readme`), rendered from the same Markdown
// files a reader sees in the repository, for GET /docs/guides/{name}. markdown-it with `html:
// false` escapes any HTML written in a guide and refuses javascript:, vbscript: and file: links,
// so nothing in a guide can run a script on the page; the page loads only the service's own
// stylesheet, under the reference page's Content-Security-Policy.

const ROOT = new URL('../../', import.meta.url);
const GUIDES_DIR = new URL('docs/', ROOT);
const README_NAME = 'readme';
const IMAGES_DIR = new URL('images/', GUIDES_DIR);
/** The pictures a guide shows (`docs/images/`, PNG only): the only files of the repository the page serves. */
const IMAGE_NAME = /^[a-z0-9-]+\.png$/;

/** A picture of `docs/images/` by its file name; undefined for any other name. */
export function guideImage(name: string): Buffer | undefined {
  if (!IMAGE_NAME.test(name)) return undefined;
  try {
    return readFileSync(new URL(name, IMAGES_DIR));
  } catch {
    return undefined;
  }
}

export interface GuidePage {
  name: string;
  /** The guide's first heading, its page title. */
  title: string;
  /** What the navigation calls it: the title up to its colon. */
  label: string;
  html: string;
}

/** The names of the guides, in the order the navigation lists them: the README first, then docs/ by name. */
function guideNames(): string[] {
  const guides = readdirSync(GUIDES_DIR)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((f) => f.slice(0, -'.md'.length))
    .sort();
  return [README_NAME, ...guides];
}

function sourceOf(name: string): string {
  return readFileSync(name === README_NAME ? new URL('README.md', ROOT) : new URL(`${name}.md`, GUIDES_DIR), 'utf8');
}

/** GitHub's anchor for a heading, so that `#section` links written for the repository work on the page too. */
function slugOf(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
}

/**
 * Where a link of a guide leads on the served page: another guide's page, an anchor, the
 * service's own paths and outside addresses as they are; undefined for a file of the repository,
 * which the service does not serve (the link's text stays, without the link).
 */
function servedHref(href: string, names: ReadonlySet<string>, fromReadme: boolean): string | undefined {
  if (/^(https?:|mailto:|#|\/)/.test(href)) return href;
  const [file = '', anchor = ''] = href.split(/(?=#)/);
  const guide = (fromReadme ? /^docs\/([a-z0-9-]+)\.md$/ : /^([a-z0-9-]+)\.md$/).exec(file)?.[1];
  if (guide !== undefined && names.has(guide)) return `/docs/guides/${guide}${anchor}`;
  if (file === (fromReadme ? 'README.md' : '../README.md')) return `/docs/guides/${README_NAME}${anchor}`;
  return undefined;
}

function markdownFor(names: ReadonlySet<string>, fromReadme: boolean): Markdown {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const render = md.renderer.renderToken.bind(md.renderer);
  // Heading ids as GitHub writes them, numbered when a heading repeats.
  md.core.ruler.push('heading_ids', (state) => {
    const seen = new Map<string, number>();
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const slug = slugOf(state.tokens[i + 1]?.content ?? '');
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      token.attrSet('id', count === 0 ? slug : `${slug}-${count}`);
    });
  });
  md.renderer.rules.link_open = (tokens, i, options) => {
    const token = tokens[i]!;
    const href = servedHref(String(token.attrGet('href') ?? ''), names, fromReadme);
    // A link the page cannot follow is dropped with its closing tag; its text stays.
    const close = tokens.slice(i).find((t) => t.type === 'link_close' && t.level === token.level);
    if (href === undefined) {
      if (close) close.hidden = true;
      return '';
    }
    token.attrSet('href', href);
    if (/^https?:/.test(href)) token.attrSet('rel', 'noopener noreferrer');
    return render(tokens, i, options);
  };
  md.renderer.rules.link_close = (tokens, i, options) => (tokens[i]!.hidden ? '' : render(tokens, i, options));
  // A picture of docs/images/ (written `images/….png` in a guide) is served beside the guides;
  // any other picture is left out of the page, its description kept.
  const image = md.renderer.rules.image!;
  md.renderer.rules.image = (tokens, i, options, env, self) => {
    const token = tokens[i]!;
    const name = /^images\/([^/]+)$/.exec(String(token.attrGet('src') ?? ''))?.[1];
    if (fromReadme || name === undefined || !IMAGE_NAME.test(name)) return md.utils.escapeHtml(token.content);
    token.attrSet('src', `/docs/guides/images/${name}`);
    return image(tokens, i, options, env, self);
  };
  return md;
}

function titleOf(markdown: string): string {
  return /^# (.+)$/m.exec(markdown)?.[1]?.replace(/`/g, '').trim() ?? 'Guide';
}

/** One guide's Markdown as HTML, its links to other guides (of `names`) turned into their pages. */
export function guideHtmlOf(markdown: string, names: ReadonlySet<string>, fromReadme = false): string {
  return markdownFor(names, fromReadme).render(markdown);
}

/** Every guide rendered; read from disk once, when the first guide is asked for. */
export function renderGuides(): Map<string, GuidePage> {
  const names = guideNames();
  const known = new Set(names);
  return new Map(names.map((name) => {
    const markdown = sourceOf(name);
    const title = titleOf(markdown);
    const html = guideHtmlOf(markdown, known, name === README_NAME);
    return [name, { name, title, label: name === README_NAME ? 'Overview' : title.split(':')[0]!.trim(), html }];
  }));
}

const escapeHtml = (text: string) => new MarkdownIt().utils.escapeHtml(text);

/** The links to the reference and to every guide, at the top of each docs page. */
export function guideNavigation(guides: Iterable<GuidePage>, current?: string): string {
  const link = (href: string, label: string, here: boolean) =>
    `<a href="${href}"${here ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a>`;
  const links = [link('/docs', 'Reference', current === undefined), ...[...guides].map((g) => link(`/docs/guides/${g.name}`, g.label, g.name === current))];
  return `<nav class="docs-nav" aria-label="Documentation">${links.join('\n')}</nav>`;
}

export function guidePageHtml(guide: GuidePage, all: Iterable<GuidePage>): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(guide.title)} · Workspace Read API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/docs/assets/docs.css">
</head>
<body class="guide-page">
${guideNavigation(all, guide.name)}
<main class="guide">
${guide.html}</main>
</body>
</html>
`;
}
