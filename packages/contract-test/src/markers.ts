// Words and sets the coverage, the run and the report share: kept apart so none of them imports another in a circle.
/** The reason recorded for what the run did not reach because `--budget` was spent. */
export const BUDGET_SPENT = 'budget spent';
/** The reason recorded for what the default plan left to `--full`. */
export const LEFT_BY_PLAN = 'left by the default plan: --full runs it';
/**
 * The kinds of check a run makes, each on every operation it applies to (the names of
 * Schemathesis's checks where one matches). Every answer of every kind is also held to the
 * contract (status, content type, headers, schema), to not_a_server_error and to
 * --max-response-time.
 */
export const CHECKS = [
  'positive_data_acceptance', 'negative_data_rejection', 'ignored_auth', 'scope_refusal', 'unsupported_method',
  'conditional_request', 'head_matches_get', 'order_of_checks', 'stateful_links',
] as const;
export type CheckKind = typeof CHECKS[number];
/** What a not-reached entry names when nothing at all was sent to the operation. */
export const EVERY_CALL = 'every call';
/** The methods that read: their operations are called whatever the options. */
export const READ_METHODS: readonly string[] = ['GET', 'HEAD'];
