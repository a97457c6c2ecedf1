import type { FieldError } from '../../errors/field-errors.js';

/** What express-openapi-validator (and rejectUnknownQueryParameters) report for each problem. */
export interface ValidatorIssue {
  path?: string;
  message?: string;
  errorCode?: string;
}

// The validator says `params` and `headers`; the contract says `in: path` and `in: header`.
const LOCATIONS: Record<string, FieldError['in']> = { params: 'path', query: 'query', headers: 'header', body: 'body' };

/** `/query/range` → `{in: 'query', name: 'range'}`; `/body/events/0` → `{in: 'body', name: 'events.0'}`. */
function locate(path: string): Pick<FieldError, 'in' | 'name'> {
  const [where = '', ...rest] = path.replace(/^\//, '').split('/');
  return { in: LOCATIONS[where] ?? 'body', name: rest.join('.') };
}

/** The validator's words for a name's `pattern: '\S'`: some character that is not whitespace. */
const BLANK_PATTERN = 'must match pattern "\\S"';

/** The validator's words for two rules of the request schemas, as a client reads them. */
const PLAINER: Record<string, string> = {
  [BLANK_PATTERN]: 'must not be blank',
  'must NOT have fewer than 1 properties': 'must set at least one field',
};

function describeIssue(issue: ValidatorIssue, place: FieldError['in']): string {
  if (issue.errorCode === 'required.openapi.validation') return 'is required';
  const plainer = PLAINER[issue.message ?? ''];
  if (plainer !== undefined) return plainer;
  const unknown = issue.errorCode === 'additionalProperties.openapi.validation' || /Unknown query parameter/i.test(issue.message ?? '');
  if (unknown) return place === 'body' ? 'is not a known field' : 'is not a known parameter';
  return issue.message ?? 'is invalid';
}

/**
 * The validator's issues as field errors, each once, in the order reported. An empty name breaks
 * both its `minLength` and its `pattern`; the length alone says so.
 */
export function fieldErrorsOf(issues: readonly ValidatorIssue[]): FieldError[] {
  const seen = new Set<string>();
  const tooShort = new Set(issues.filter((i) => i.errorCode === 'minLength.openapi.validation').map((i) => i.path));
  const errors: FieldError[] = [];
  for (const issue of issues) {
    if (issue.message === BLANK_PATTERN && tooShort.has(issue.path)) continue;
    const place = locate(issue.path ?? '');
    const error = { ...place, message: describeIssue(issue, place.in) };
    const key = `${error.in}\u0000${error.name}\u0000${error.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(error);
  }
  return errors;
}
