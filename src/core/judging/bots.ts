/**
 * Bot-like traffic in a query log, by four simple rules (a line is dropped for the first that applies):
 * - `agent`: its user agent names a robot (bot, crawl, spider, slurp, curl, wget, python-requests, headless);
 * - `shape`: the query is longer than 256 characters or holds a URL (http://, https://, www.);
 * - `volume`: its session (else its user) made more than `maxPerSession` searches in the whole log (counts summed);
 * - `rate`: its session (else its user) made `burst` searches within `burstSeconds` seconds somewhere in the log.
 * Lines without a session or user are judged by the first two rules only; `rate` needs times.
 */
import type { LogRecord } from './query-log';

export interface BotRules {
  maxPerSession: number;
  burst: number;
  burstSeconds: number;
}

export const DEFAULT_BOT_RULES: BotRules = { maxPerSession: 200, burst: 10, burstSeconds: 10 };
export type BotRule = 'agent' | 'shape' | 'volume' | 'rate';

const ROBOT_AGENT = /bot|crawl|spider|slurp|curl|wget|python-requests|headless/i;
const URL_LIKE = /https?:\/\/|www\./i;
const MAX_QUERY_LENGTH = 256;

const sessionOf = (r: LogRecord) => r.session ?? r.user;

/** The rule each bot-like record breaks (records not in the map are kept), and how many sessions were flagged. */
export function findBots(
  records: readonly LogRecord[],
  rules: BotRules = DEFAULT_BOT_RULES,
): { byRecord: Map<LogRecord, BotRule>; sessions: number } {
  const bySession = new Map<string, LogRecord[]>();
  for (const r of records) {
    const s = sessionOf(r);
    if (s === undefined) continue;
    let list = bySession.get(s);
    if (!list) bySession.set(s, (list = []));
    list.push(r);
  }
  const flagged = new Map<string, BotRule>();
  for (const [s, list] of bySession) {
    if (list.reduce((n, r) => n + r.count, 0) > rules.maxPerSession) flagged.set(s, 'volume');
    else if (hasBurst(list, rules)) flagged.set(s, 'rate');
  }
  const byRecord = new Map<LogRecord, BotRule>();
  for (const r of records) {
    const rule: BotRule | undefined =
      r.agent !== undefined && ROBOT_AGENT.test(r.agent)
        ? 'agent'
        : r.text.length > MAX_QUERY_LENGTH || URL_LIKE.test(r.text)
          ? 'shape'
          : flagged.get(sessionOf(r) ?? '\u0000');
    if (rule) byRecord.set(r, rule);
  }
  return { byRecord, sessions: flagged.size };
}

/** `burst` searches (counts expanded) with times spanning at most `burstSeconds`. */
function hasBurst(list: readonly LogRecord[], rules: BotRules): boolean {
  const times: number[] = [];
  for (const r of list) if (r.time !== undefined) for (let i = 0; i < Math.min(r.count, rules.burst); i++) times.push(r.time);
  if (times.length < rules.burst) return false;
  times.sort((a, b) => a - b);
  for (let i = 0; i + rules.burst - 1 < times.length; i++) {
    if (times[i + rules.burst - 1]! - times[i]! <= rules.burstSeconds * 1000) return true;
  }
  return false;
}
