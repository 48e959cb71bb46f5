/** Plain-text and Markdown tables for terminal and CI output. Numbers are right-aligned. */
export type Cell = string | number;

export function formatNumber(value: number, digits = 4): string {
  if (Number.isNaN(value)) return 'n/a';
  return value.toFixed(digits);
}

function cellText(c: Cell): string {
  return typeof c === 'number' ? formatNumber(c) : c;
}

export function textTable(headers: string[], rows: Cell[][]): string {
  const texts = rows.map((r) => r.map(cellText));
  const widths = headers.map((h, i) => Math.max(h.length, ...texts.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...texts.map(line)].join('\n');
}

export function markdownTable(headers: string[], rows: Cell[][]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number'));
  return [
    `| ${headers.map(esc).join(' | ')} |`,
    `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.map((c) => esc(cellText(c))).join(' | ')} |`),
  ].join('\n');
}
