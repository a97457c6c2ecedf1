#!/usr/bin/env node
// API change control: compares the current bundled contract with the released
// one and fails on a breaking change that was not announced, i.e. unless
// info.version got a new major AND the CHANGELOG section of that version names
// every breaking change. See scripts/contract-diff/README.md.
//
//   node scripts/check-breaking-changes.mjs [--released DIR] [--current DIR] [--changelog FILE]
//   node scripts/check-breaking-changes.mjs --release [--released DIR] [--current DIR]
//
// Exit codes: 0 ok, 1 uncovered breaking change or missing released contract (or, with
// --release, a document changed since its release under the same info.version), 2 usage or
// unreadable document.

import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffOpenApi } from './contract-diff/diff-openapi.mjs';
import { diffAsyncApi } from './contract-diff/diff-asyncapi.mjs';

/** @typedef {import('./contract-diff/schema-compat.mjs').Change} Change */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = 'node scripts/check-breaking-changes.mjs';

const DOCUMENTS = [
  { label: 'OpenAPI', file: 'openapi.json', diff: diffOpenApi },
  { label: 'AsyncAPI', file: 'asyncapi.json', diff: diffAsyncApi },
];

/** The `version` of an accepted change not released yet: its CHANGELOG section is `## Unreleased`. */
const UNRELEASED = 'Unreleased';

/**
 * Breaking changes accepted without a new major version. Each entry is ONE change, matched on
 * everything the check prints about it (kind, identifier, detail, component alias where the change
 * has one), and it counts
 * only once the CHANGELOG section of `version` names `changelog`. An entry is for a change that
 * clients written against the old contract demonstrably survive; say why beside it. An entry of
 * UNRELEASED is named in `## Unreleased`, whatever the current info.version; the release that
 * renames that section gives the entry the released version.
 */
export const ACCEPTED_CHANGES = [
  {
    // A 422's `data` was always null and now lists the invalid inputs (`{errors}`). A client that
    // followed the contract never read `data` on an error, so it keeps working.
    version: '1.1.0',
    kind: 'changed-type',
    id: /^\w+ 422 application\/json data$/,
    detail: 'type null → object',
    alias: 'ValidationErrorDetails',
    changelog: 'ValidationErrorEnvelope.data',
  },
  // Each export's NDJSON moved to an operation of its own (the same path with `.ndjson`), so that
  // every response has one media type: generators typed the two-media 200 wrongly or crashed on
  // it (orval typed a body that never came, Kubb's fetch client parsed CSV as JSON). `format=csv`
  // and no `format` answer as before; `format=ndjson` is now a 422 naming the parameter.
  ...['exportAnswers', 'headExportAnswers', 'exportDailyRates', 'headExportDailyRates'].map((op) => ({
    version: '1.2.0',
    kind: 'removed-enum-value',
    id: new RegExp(`^${op} query format$`),
    detail: 'value "ndjson" removed',
    changelog: `${op} query format`,
  })),
  ...['exportAnswers', 'exportDailyRates'].map((op) => ({
    version: '1.2.0',
    kind: 'removed-response-media-type',
    id: new RegExp(`^${op} 200 application/x-ndjson$`),
    detail: 'response media type application/x-ndjson removed',
    changelog: `${op} 200 application/x-ndjson`,
  })),
  // The schemas now state two rules the service has applied since these operations were first
  // published: a name of whitespace alone is a 422 naming `name` (the service trims names and
  // refuses what is left empty; `\S` is exactly what JavaScript's trim does not remove), and an
  // update of a webhook that sends no field is a 422 (as updateApiKey's `minProperties: 1` already
  // said). Every request the new schemas refuse was refused before, with the same status.
  ...[['createApiKey', 'CreateApiKeyRequest'], ['updateApiKey', 'UpdateApiKeyRequest'],
    ['createWebhook', 'CreateWebhookRequest'], ['updateWebhook', 'UpdateWebhookRequest']].map(([op, schema]) => ({
    version: UNRELEASED,
    kind: 'changed-constraint',
    id: new RegExp(`^${op} request application/json name$`),
    detail: `pattern (none) → ${JSON.stringify('\\S')}`,
    alias: `${schema}.name`,
    changelog: `${schema}.name`,
  })),
  {
    version: UNRELEASED,
    kind: 'tightened-constraint',
    id: /^updateWebhook request application\/json$/,
    detail: 'minProperties (none) → 1',
    alias: 'UpdateWebhookRequest',
    changelog: 'UpdateWebhookRequest',
  },
];

/**
 * The entry of ACCEPTED_CHANGES that covers `change`, if the CHANGELOG announces it.
 * @param {Change} change
 * @param {string | undefined} changelog
 * @param {string} version the current document's version
 */
export function acceptedEntry(change, changelog, version) {
  const current = parseSemver(version);
  return ACCEPTED_CHANGES.find((entry) => {
    const since = parseSemver(entry.version);
    const released = entry.version !== UNRELEASED;
    if (released && (!current || !since || current.major !== since.major || current.minor < since.minor)) return false;
    const section = changelog === undefined ? undefined : changelogSection(changelog, entry.version);
    return change.kind === entry.kind && entry.id.test(change.id) && change.detail === entry.detail
      && (entry.alias === undefined || (change.aliases ?? []).includes(entry.alias))
      && section !== undefined && mentions(section, entry.changelog);
  });
}

class UsageError extends Error {}

/** @param {string[]} argv */
function parseArgs(argv) {
  // Defaults are relative to the repository so the check runs from anywhere;
  // explicit paths are relative to the caller's directory, as usual for CLIs.
  const opts = {
    released: path.join(root, 'contract', 'released'),
    current: path.join(root, 'generated'),
    changelog: path.join(root, 'CHANGELOG.md'),
    release: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      return path.resolve(v);
    };
    if (arg === '--released') opts.released = value();
    else if (arg === '--current') opts.current = value();
    else if (arg === '--changelog') opts.changelog = value();
    else if (arg === '--release') opts.release = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(`usage: ${SELF} [--released DIR] [--current DIR] [--changelog FILE] [--release]`);
      process.exit(0);
    } else throw new UsageError(`unknown argument ${arg}`);
  }
  return opts;
}

/** @param {string} file */
function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read ${path.relative(process.cwd(), file) || file}: ${/** @type {Error} */ (err).message}`);
  }
}

/** @param {string} version */
function parseSemver(version) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(version ?? ''));
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : undefined;
}

/**
 * Text of the `## <version>` section (`## 2.0.0`, `## [2.0.0] - date`, `## v2.0.0`),
 * up to the next level-2 heading; undefined when there is none.
 * @param {string} changelog
 * @param {string} version
 */
export function changelogSection(changelog, version) {
  const v = escapeRegExp(String(version).replace(/^v/, ''));
  const heading = new RegExp(`^##\\s+\\[?v?${v}\\]?(?![\\w.+-])`);
  const lines = changelog.split(/\r?\n/);
  const start = lines.findIndex((l) => heading.test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^##\s/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

const escapeRegExp = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `text` names `id` as a whole identifier: `getMe` must not be
 * satisfied by `getMeV2`, nor `User.email` by `User.emailVerified`.
 * @param {string} text
 * @param {string} id
 */
export function mentions(text, id) {
  const flat = text.replace(/\s+/g, ' ');
  const pattern = escapeRegExp(id.replace(/\s+/g, ' '));
  return new RegExp(`(?<![\\w./{-])${pattern}(?![\\w/{\\[-]|\\.\\w)`).test(flat);
}

/** @param {Change} c */
function formatChange(c) {
  const also = c.aliases?.length ? ` (or name ${c.aliases.join(', ')})` : '';
  const label = c.accepted ? 'ACCEPTED' : c.breaking ? 'BREAKING' : 'NON-BREAKING';
  return `${label} ${c.kind}: ${c.id}: ${c.detail}${also}`;
}

/**
 * Why `--release` must not record the current documents: each one that changed since its last
 * release (any change the diff sees, additive included) while keeping that release's
 * info.version, which would tell clients that nothing changed.
 * @param {ReturnType<typeof parseArgs>} opts
 * @returns {string[]}
 */
function unversionedChanges(opts) {
  const problems = [];
  for (const d of DOCUMENTS) {
    const releasedFile = path.join(opts.released, d.file);
    const currentFile = path.join(opts.current, d.file);
    if (!existsSync(releasedFile) || !existsSync(currentFile)) continue;
    const oldDoc = readJson(releasedFile);
    const newDoc = readJson(currentFile);
    const version = oldDoc.info?.version;
    if (newDoc.info?.version !== version) continue;
    const changes = d.diff(oldDoc, newDoc);
    if (changes.length === 0) continue;
    problems.push(`${d.label}: ${changes.length} change(s) since the released ${version}, but info.version is still ${version}: give it a new version (a minor one for additive changes) and a CHANGELOG line`);
    for (const c of changes) problems.push(`  ${formatChange(c)}`);
  }
  return problems;
}

/** @param {ReturnType<typeof parseArgs>} opts */
function release(opts) {
  const problems = existsSync(opts.released) ? unversionedChanges(opts) : [];
  if (problems.length > 0) {
    for (const line of problems) console.error(line);
    console.error('Nothing released.');
    return 1;
  }
  mkdirSync(opts.released, { recursive: true });
  /** @type {Record<string, string>} */
  const versions = {};
  for (const d of DOCUMENTS) {
    const from = path.join(opts.current, d.file);
    if (!existsSync(from)) {
      console.log(`${d.label}: no ${d.file} in ${opts.current}, not released`);
      continue;
    }
    versions[d.file.replace(/\.json$/, '')] = readJson(from).info?.version; // also validates the JSON
    copyFileSync(from, path.join(opts.released, d.file));
    console.log(`${d.label}: released ${d.file} (version ${versions[d.file.replace(/\.json$/, '')]})`);
  }
  if (Object.keys(versions).length === 0) throw new UsageError(`nothing to release: no bundled documents in ${opts.current}`);
  // The versions also live in the documents (info.version, which the check
  // reads); this file just makes the released version visible at a glance.
  writeFileSync(path.join(opts.released, 'version.json'), `${JSON.stringify(versions, null, 2)}\n`);
  return 0;
}

/** @param {ReturnType<typeof parseArgs>} opts */
function check(opts) {
  if (!existsSync(opts.released)) {
    console.error(`No released contract at ${opts.released}.`);
    console.error(`Record the current contract as the released one with: ${SELF} --release`);
    return 1;
  }
  const changelog = existsSync(opts.changelog) ? readFileSync(opts.changelog, 'utf8') : undefined;
  let failed = false;

  for (const d of DOCUMENTS) {
    const releasedFile = path.join(opts.released, d.file);
    const currentFile = path.join(opts.current, d.file);
    const hasReleased = existsSync(releasedFile);
    const hasCurrent = existsSync(currentFile);
    if (!hasReleased && !hasCurrent) {
      console.log(`${d.label}: no document released or current, skipped`);
      continue;
    }
    if (!hasReleased) {
      console.error(`${d.label}: ${releasedFile} is missing; record it with: ${SELF} --release`);
      failed = true;
      continue;
    }
    if (!hasCurrent) {
      console.error(`${d.label}: ${currentFile} is missing; bundle the contract first (npm run codegen)`);
      failed = true;
      continue;
    }

    const oldDoc = readJson(releasedFile);
    const newDoc = readJson(currentFile);
    const oldVersion = oldDoc.info?.version;
    const newVersion = newDoc.info?.version;
    const changes = d.diff(oldDoc, newDoc);
    for (const c of changes) {
      if (c.breaking && acceptedEntry(c, changelog, newVersion)) c.accepted = true;
    }
    const breaking = changes.filter((c) => c.breaking && !c.accepted);
    console.log(`${d.label}: released ${oldVersion} → current ${newVersion}: ${changes.length} change(s), ${breaking.length} breaking`);
    for (const c of changes) console.log(`  ${formatChange(c)}`);
    if (breaking.length === 0) continue;

    // Breaking changes are allowed only when announced: a new major version
    // and a CHANGELOG section for it naming each change.
    const o = parseSemver(oldVersion);
    const n = parseSemver(newVersion);
    if (!o || !n || n.major <= o.major) {
      const needed = o ? `${o.major + 1}.0.0` : 'a new major version';
      console.error(`${d.label}: ${breaking.length} breaking change(s) but info.version ${oldVersion} → ${newVersion} is not a major bump (needs ${needed} and a "## ${needed}" CHANGELOG section naming each change)`);
      failed = true;
      continue;
    }
    const section = changelog === undefined ? undefined : changelogSection(changelog, newVersion);
    if (section === undefined) {
      console.error(`${d.label}: ${changelog === undefined ? `${opts.changelog} not found` : `no "## ${newVersion}" section in ${opts.changelog}`}; it must name each breaking change:`);
      for (const c of breaking) console.error(`  ${c.id}`);
      failed = true;
      continue;
    }
    const uncovered = breaking.filter((c) => ![c.id, ...(c.aliases ?? [])].some((id) => mentions(section, id)));
    if (uncovered.length > 0) {
      console.error(`${d.label}: breaking change(s) not named in the "## ${newVersion}" CHANGELOG section:`);
      for (const c of uncovered) console.error(`  ${c.id}${c.aliases?.length ? ` (or ${c.aliases.join(', ')})` : ''}`);
      failed = true;
    }
  }
  console.log(failed ? 'Contract check FAILED.' : 'Contract check passed.');
  return failed ? 1 : 0;
}

function main() {
  try {
    const opts = parseArgs(process.argv.slice(2));
    return opts.release ? release(opts) : check(opts);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`error: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

// Importable for tests of the helpers without running the CLI.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
