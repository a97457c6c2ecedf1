// RFC 4180: a field holding a comma, a double quote, CR or LF is enclosed in double quotes, with
// its quotes doubled; records end with CRLF.
//
// Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` (or TAB or CR, which some of them
// skip first) as a formula, and texts here come from outside: prompt texts, answers written by AI
// platforms, competitor names. Such a text cell gets a leading `'`, which the spreadsheet shows as
// text instead of running it (the usual defence against CSV injection). Numbers and booleans are values the service
// computed and are written as they are, so a number stays a number. The export operations in
// openapi/paths/api_v1_visibility_exports_*.yaml document this.

export type CsvValue = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(value: CsvValue): string {
  if (value === null) return '';
  const text = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
