// RFC 4180: a field holding a comma, a double quote, CR or LF is enclosed in double quotes, with
// its quotes doubled; records end with CRLF.

export type CsvValue = string | number | boolean | null;

export function csvField(value: CsvValue): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
