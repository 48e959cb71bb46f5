/**
 * Personal data in logged query text. A query holding any of these is removed whole (not redacted): a query that
 * names an e-mail address or a card often holds a name too, which no pattern sees. Built-in kinds, in the order a
 * query is checked (a query counts once, under the first kind that matches):
 * - `email`: local@domain.tld;
 * - `card`: 13–19 digits, spaces or dashes between them allowed, passing the Luhn check (payment cards);
 * - `iban`: two capital letters, two check digits, 11–30 capitals or digits (single spaces allowed), passing
 *   the ISO 13616 mod-97 check;
 * - `national-id`: US social security numbers (ddd-dd-dddd), UK National Insurance numbers (AB123456C);
 * - `phone`: digits with spaces, dots, dashes or parentheses between them: 10–15 digits, or 8–15 after a `+`;
 * - `account`: any other run of 9 or more digits (account, customer, order and ID numbers).
 * Ordinary text — words and numbers of up to 8 digits that are not glued into such runs — is kept.
 * More kinds come from a patterns file (`loadPiiPatterns`), checked after the built-in ones.
 */
import { parseJsonWithLines } from '../util/json-source';
import { InputError } from '../util/diagnostics';
import { readUserText } from '../util/text-file';

export interface PiiPattern {
  name: string;
  regex: RegExp;
  /** A further check of a match (a checksum); a match failing it is not personal data. */
  valid?: (match: string) => boolean;
}

const digitsOf = (s: string) => s.replace(/\D/g, '');

/** Luhn (ISO/IEC 7812) check over the digits of `s`. */
export function luhnValid(s: string): boolean {
  const d = digitsOf(s);
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let x = d.charCodeAt(d.length - 1 - i) - 48;
    if (i % 2 === 1) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
    sum += x;
  }
  return d.length > 0 && sum % 10 === 0;
}

/** ISO 13616 IBAN check: first four characters moved to the end, letters as 10..35, the number mod 97 is 1. */
export function ibanValid(s: string): boolean {
  const t = s.replace(/ /g, '').toUpperCase();
  const moved = t.slice(4) + t.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const v = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of v) rest = (rest * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rest === 1;
}

const NOT_ALNUM_BEFORE = '(?<![\\p{L}\\p{N}])';
const NOT_ALNUM_AFTER = '(?![\\p{L}\\p{N}])';
const bounded = (body: string, flags = 'u') => new RegExp(`${NOT_ALNUM_BEFORE}(?:${body})${NOT_ALNUM_AFTER}`, `g${flags}`);

export const BUILT_IN_PII: readonly PiiPattern[] = [
  { name: 'email', regex: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu },
  { name: 'card', regex: bounded('\\d(?:[ -]?\\d){12,18}'), valid: luhnValid },
  { name: 'iban', regex: bounded('[A-Z]{2}\\d{2}(?: ?[A-Z0-9]){11,30}'), valid: ibanValid },
  { name: 'national-id', regex: bounded('\\d{3}-\\d{2}-\\d{4}|[A-CEGHJ-PR-TW-Z]{2} ?\\d{2} ?\\d{2} ?\\d{2} ?[A-D]', 'iu') },
  {
    name: 'phone',
    regex: bounded('\\+?\\(?\\d(?:[ .()-]{0,2}\\d){7,14}'),
    valid: (m) => (m.startsWith('+') ? digitsOf(m).length >= 8 : digitsOf(m).length >= 10),
  },
  { name: 'account', regex: bounded('\\d{9,}') },
];

/** The kind of the first personal item in `text`, or undefined when there is none. */
export function findPersonalData(text: string, patterns: readonly PiiPattern[] = BUILT_IN_PII): string | undefined {
  for (const p of patterns) {
    p.regex.lastIndex = 0;
    for (const m of text.matchAll(p.regex)) {
      if (!p.valid || p.valid(m[0])) return p.name;
    }
  }
  return undefined;
}

/**
 * More patterns from a JSON file `{"kind": "regular expression", ...}` (JavaScript syntax, matched case-insensitively
 * anywhere in the query). A pattern that does not compile, or matches the empty string, is exit 2 at its line.
 */
export function loadPiiPatterns(path: string, display = path): PiiPattern[] {
  const parsed = parseJsonWithLines(readUserText(path, display));
  if (!parsed.ok)
    throw new InputError(`invalid JSON at column ${parsed.column}: ${parsed.message}`, [], { file: display, line: parsed.line });
  const root = parsed.value;
  if (root.kind !== 'object')
    throw new InputError('expected an object {"kind": "regular expression", ...}', [], { file: display, line: root.line });
  const out: PiiPattern[] = [];
  for (const e of root.entries) {
    const at = { file: display, line: e.keyLine, key: e.key };
    if (e.value.kind !== 'scalar' || typeof e.value.value !== 'string' || e.value.value === '') {
      throw new InputError('must be a regular expression as a non-empty string', [], at);
    }
    let regex: RegExp;
    try {
      regex = new RegExp(e.value.value, 'giu');
    } catch (err) {
      throw new InputError(`not a valid regular expression: ${(err as Error).message}`, [], at);
    }
    if (regex.test('')) throw new InputError('matches the empty string, so it would remove every query', [], at);
    out.push({ name: e.key, regex });
  }
  return out;
}
