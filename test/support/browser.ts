import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

// Debian's chromium package; .ci/run installs it. Missing means the check cannot run: fail, loudly.
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium); .ci/run does this in CI.`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A page whose Content-Security-Policy violations, console errors and page errors are collected in `problems`. */
export async function watchedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // The page's own report of each violation, read back by `violations(page)`; an init script runs
  // through the DevTools protocol, outside the page's CSP.
  await page.exposeFunction('reportCspViolation', (text: string) => problems.push(`CSP violation: ${text}`));
  await context.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => {
    window.reportCspViolation(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline code') + ' on ' + e.documentURI);
  });`);
  return { page, problems };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation { id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }

/**
 * axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules),
 * as `rule: help (targets)` lines. The source is evaluated through the DevTools protocol, which
 * the page's CSP does not govern, so the check needs no exception in the policy.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (loaded !== true) await page.evaluate(axeSource);
  const violations = await page.evaluate<AxeViolation[]>(`window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  }).then((result) => result.violations)`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
}
