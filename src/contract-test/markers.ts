// Words and sets the coverage, the run and the report share: kept apart so none of them imports another in a circle.
/** The reason recorded for what the run did not reach because `--budget` was spent. */
export const BUDGET_SPENT = 'budget spent';
/** What a not-reached entry names when nothing at all was sent to the operation. */
export const EVERY_CALL = 'every call';
/** The methods that read: their operations are called whatever the options. */
export const READ_METHODS: readonly string[] = ['GET', 'HEAD'];
