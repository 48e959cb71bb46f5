/**
 * Generated query logs with known content: ordinary searches from people (Zipf-like frequencies, case and white
 * space variants of one query), planted personal data, bot sessions breaking each rule, and garbled lines.
 */
import type { Impression } from '../../src/core/judging/clicks';
import { createRng } from '../../src/core/util/random';

/** A Luhn-valid card number of `length` digits from a seeded source. */
export function luhnCard(rng: () => number, length = 16): string {
  const d = Array.from({ length: length - 1 }, (_, i) => (i === 0 ? 4 : Math.floor(rng() * 10)));
  // The check digit makes the Luhn sum a multiple of 10 (doubling every second digit from the right, check excluded).
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let x = d[d.length - 1 - i]!;
    if (i % 2 === 0) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
    sum += x;
  }
  return [...d, (10 - (sum % 10)) % 10].join('');
}

/** A valid German IBAN: DE, check digits computed by ISO 7064 mod 97-10, 18 digits of bank and account. */
export function germanIban(rng: () => number): string {
  const bban = Array.from({ length: 18 }, () => Math.floor(rng() * 10)).join('');
  // Check digits = 98 - (BBAN + "DE00" as digits) mod 97, D = 13, E = 14.
  const numeric = `${bban}131400`;
  let rest = 0;
  for (const ch of numeric) rest = (rest * 10 + Number(ch)) % 97;
  return `DE${String(98 - rest).padStart(2, '0')}${bban}`;
}

export const WORDS = [
  'red',
  'shoes',
  'running',
  'jacket',
  'waterproof',
  'kids',
  'café',
  'table',
  'lamp',
  'garden',
  'hose',
  'coffee',
  'grinder',
  'wool',
  'socks',
  'laptop',
  'stand',
  'yoga',
  'mat',
  'tent',
];

export interface GeneratedLog {
  lines: string[];
  /** Personal items planted, one per line holding it. */
  planted: { kind: string; item: string }[];
  /** Normal forms of the people's queries and their searches. */
  people: Map<string, number>;
  /** Lines per bot rule. */
  bots: { agent: number; volume: number; rate: number; shape: number };
  garbled: number;
}

export function generateLog(opts: { seed: number; distinct: number; searches: number }): GeneratedLog {
  const rng = createRng(opts.seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng() * xs.length)]!;
  const queries = Array.from({ length: opts.distinct }, (_, i) => `${pick(WORDS)} ${pick(WORDS)} ${i}`);
  const lines: string[] = [];
  const people = new Map<string, number>();
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < opts.searches; i++) {
    // Zipf-like: query k with weight 1/(k+1).
    const k = Math.min(opts.distinct - 1, Math.floor(Math.exp(rng() * Math.log(opts.distinct + 1))) - 1);
    const q = queries[k]!;
    people.set(q, (people.get(q) ?? 0) + 1);
    const variant = rng() < 0.3 ? `  ${q.toUpperCase().replace(' ', '   ')} ` : q;
    lines.push(
      JSON.stringify({
        query: variant,
        session_id: `p${i % Math.max(1, Math.floor(opts.searches / 20))}`,
        timestamp: new Date(t0 + i * 60_000).toISOString(),
      }),
    );
  }
  const planted: { kind: string; item: string }[] = [];
  const plant = (kind: string, item: string) => {
    planted.push({ kind, item });
    lines.push(JSON.stringify({ query: `${pick(WORDS)} ${item} ${pick(WORDS)}`, session_id: `x${planted.length}` }));
  };
  for (let i = 0; i < 5; i++) {
    plant('email', `user${i}.name@example${i}.com`);
    plant('card', luhnCard(rng).replace(/(\d{4})(?=\d)/g, '$1 '));
    plant('iban', germanIban(rng));
    plant('national-id', `${100 + i}-${10 + i}-${1000 + i}`);
    plant('phone', `+44 20 7946 ${1000 + i}`);
    plant('account', String(123456789 + i * 7));
  }
  const bots = { agent: 3, volume: 250, rate: 12, shape: 2 };
  for (let i = 0; i < bots.agent; i++)
    lines.push(JSON.stringify({ query: pick(WORDS), user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' }));
  for (let i = 0; i < bots.volume; i++) lines.push(JSON.stringify({ query: `${pick(WORDS)} ${i}`, session_id: 'crawler-1' }));
  for (let i = 0; i < bots.rate; i++)
    lines.push(JSON.stringify({ query: `${pick(WORDS)} fast`, session_id: 'burst-1', timestamp: new Date(t0 + i * 200).toISOString() }));
  lines.push(
    JSON.stringify({ query: 'see https://example.com/page', session_id: 'u1' }),
    JSON.stringify({ query: 'x'.repeat(300), session_id: 'u2' }),
  );
  lines.push('{"query": "unterminated', '[1, 2]', JSON.stringify({ session_id: 'no-query' }));
  // Shuffle so that the planted lines are spread through the file (the bots' own order does not matter).
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  }
  return { lines, planted, people, bots, garbled: 3 };
}

/** Position-based clicks: P(click) = examination(position) × attractiveness(grade). */
export function simulateClicks(
  seed: number,
  queries: { text: string; docs: Map<string, number> }[],
  lists: number,
  shuffle: (docs: string[], rng: () => number) => string[],
): Impression[] {
  const rng = createRng(seed);
  const exam = [1, 0.7, 0.5, 0.35, 0.25, 0.18, 0.13, 0.1];
  const attract = [0.05, 0.2, 0.5, 0.9];
  const out: Impression[] = [];
  for (let i = 0; i < lists; i++) {
    const q = queries[i % queries.length]!;
    const results = shuffle([...q.docs.keys()], rng);
    const clicks = results.filter((d, p) => rng() < exam[p]! * attract[q.docs.get(d)!]!);
    out.push({ query: q.text, results, clicks: new Set(clicks) });
  }
  return out;
}
