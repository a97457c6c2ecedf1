// The AsyncAPI half of the spec quality gate: the official parser (structure and the AsyncAPI
// rules), redocly's AsyncAPI lint, the house rules over the bundle, and every message example
// checked against its payload and headers schemas, which neither tool does. Zero findings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Parser, fromFile } from '@asyncapi/parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { REDOCLY_FINDING, root, toolOutput } from './run-tool.mjs';
import { checkHouseRules } from './spec-house-rules.mjs';
import { ASYNCAPI_LINT_CONFIG, ASYNCAPI_SOURCE, bundleAsyncApi } from './codegen-asyncapi.mjs';

// Spectral severities: 0 error, 1 warning, 2 information, 3 hint. Information (such as "AsyncAPI
// 3.1 exists") does not fail the gate; the document stays on 3.0 on purpose.
const FAILING = new Set([0, 1]);

/** Validates each example's payload and headers against the message's schemas in the bundle. */
export function checkMessageExamples(doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv, { mode: 'full' });
  ajv.addSchema({ ...doc, $id: 'https://asyncapi.test/doc.json' });
  const problems = [];
  for (const [name, message] of Object.entries(doc.components?.messages ?? {})) {
    if (!message.examples?.length) problems.push(`components.messages.${name}: no example`);
    for (const [i, example] of (message.examples ?? []).entries()) {
      for (const part of ['payload', 'headers']) {
        const ref = message[part]?.$ref;
        if (!ref) continue;
        if (example[part] === undefined) {
          problems.push(`components.messages.${name}.examples[${i}]: no ${part}`);
          continue;
        }
        const validate = ajv.getSchema(`https://asyncapi.test/doc.json${ref}`);
        if (!validate(example[part])) {
          problems.push(`components.messages.${name}.examples[${i}].${part}: ${ajv.errorsText(validate.errors, { dataVar: part })}`);
        }
      }
    }
  }
  return problems;
}

export async function lintAsyncApi() {
  const source = path.join(root, ASYNCAPI_SOURCE);
  const { diagnostics } = await fromFile(new Parser(), source).parse();
  const failing = diagnostics.filter((d) => FAILING.has(d.severity));
  for (const d of failing) console.error(`${ASYNCAPI_SOURCE}: ${d.code} at ${d.path.join('.')}: ${d.message}`);
  if (failing.length > 0) throw new Error(`@asyncapi/parser: ${failing.length} problem(s)`);
  console.log(`${ASYNCAPI_SOURCE}: @asyncapi/parser found no problems`);
  // A warning fails the gate as an error does, as it does for the OpenAPI document: redocly
  // itself exits 0 on warnings.
  const lint = await toolOutput('redocly', ['lint', ASYNCAPI_SOURCE, '--config', ASYNCAPI_LINT_CONFIG, '--format', 'stylish', '--max-problems', '500']);
  process.stdout.write(lint.output);
  if (lint.status !== 0 || REDOCLY_FINDING.test(lint.output)) throw new Error(`redocly lint of ${ASYNCAPI_SOURCE}: problems above (exit ${lint.status})`);
  const scratch = mkdtempSync(path.join(tmpdir(), 'asyncapi-lint-'));
  try {
    const doc = bundleAsyncApi(path.join(scratch, 'asyncapi.json'));
    const problems = [...checkHouseRules(doc), ...checkMessageExamples(doc)];
    for (const p of problems) console.error(`${ASYNCAPI_SOURCE}: ${p}`);
    if (problems.length > 0) throw new Error(`${problems.length} AsyncAPI house-rule or example problem(s)`);
    console.log(`${ASYNCAPI_SOURCE}: house rules and examples: no problems`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
