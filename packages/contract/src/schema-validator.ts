import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { perContract } from './per-contract.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const DOCUMENT_ID = 'https://contract.invalid/document.json';

/**
 * Validates values against schemas inside one contract document, addressed by JSON pointer
 * (`#/components/schemas/Answer`): JSON Schema 2020-12 with formats in full mode, as the service
 * itself validates (a date like 2026-02-30 is refused).
 */
export class SchemaValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: object) {
    // `example`, `description` and the document's own keywords are not validation keywords.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv, { mode: 'full' });
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  }

  /** Problems of a value against the schema at a pointer; empty when it is valid. */
  problems(pointer: string, value: unknown): string[] {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(`${DOCUMENT_ID}${pointer}`);
      if (!validate) return [`the contract has no schema at ${pointer}`];
      this.compiled.set(pointer, validate);
    }
    return validate(value) ? [] : describeErrors(validate.errors ?? []);
  }
}

/**
 * The validator of a document, shared by everything in the process that checks against the same
 * contract (the answers of apps that validate them, every run of the `contract-test` checker):
 * the document is added once, and each schema is compiled on its first use, with the schemas it
 * refers to compiled once for all of them.
 */
export const schemaValidatorFor = perContract((document) => new SchemaValidator(document));

/**
 * Ajv errors in words a reader can act on: where, what, and the value the schema allows or refused.
 * Names the value's author chose (a property name, a pointer through one) are quoted unless plain,
 * so that whoever prints a problem can tell them from its own words.
 */
function describeErrors(errors: ErrorObject[]): string[] {
  const described = errors.map((e) => {
    const params = e.params as Record<string, unknown>;
    const where = /^[\w/~.-]*$/.test(e.instancePath) ? e.instancePath : JSON.stringify(e.instancePath);
    const detail = params.additionalProperty !== undefined ? ` (${JSON.stringify(params.additionalProperty)})`
      : params.allowedValue !== undefined ? ` (${JSON.stringify(params.allowedValue)})`
        : params.allowedValues !== undefined ? ` (${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})`
          : '';
    return `${where || '/'} ${e.message ?? 'is invalid'}${detail}`;
  });
  return [...new Set(described)].slice(0, 8);
}
