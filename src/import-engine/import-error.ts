/**
 * Why an import failed: the 1-based line of the file, the JSON path of the offending field
 * (`competitors[2]`, `citations[0].url`; `-` when the line itself is not a JSON object) and the
 * problem. The message is exactly `line N: field: problem`, which the command line prints as is.
 */
export class ImportError extends Error {
  constructor(
    readonly line: number,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`line ${line}: ${field}: ${problem}`);
    this.name = 'ImportError';
  }
}
