import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as armenian } from '@orama/stemmers/armenian';
import { stemmer as bulgarian } from '@orama/stemmers/bulgarian';
import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as greek } from '@orama/stemmers/greek';
import { stemmer as hungarian } from '@orama/stemmers/hungarian';
import { stemmer as indian } from '@orama/stemmers/indian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as irish } from '@orama/stemmers/irish';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian';
import { stemmer as nepali } from '@orama/stemmers/nepali';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as serbian } from '@orama/stemmers/serbian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';
import { stemmer as tamil } from '@orama/stemmers/tamil';
import { stemmer as turkish } from '@orama/stemmers/turkish';
import { stemmer as ukrainian } from '@orama/stemmers/ukrainian';
import type { AnalyzerConfig, RankConfig, StemmerName } from '../config/types';
import { DEFAULT_ANALYZER, stableStringify } from '../config/defaults';
import { ENGLISH_STOPWORDS } from './stopwords/english';
import { INDONESIAN_STOPWORDS } from './stopwords/indonesian';

// Static imports (not require-by-name) so the bundler includes them.
const STEMMERS: Record<Exclude<StemmerName, 'none'>, (word: string) => string> = {
  arabic,
  armenian,
  bulgarian,
  danish,
  dutch,
  english,
  finnish,
  french,
  german,
  greek,
  hungarian,
  indian,
  indonesian,
  irish,
  italian,
  lithuanian,
  nepali,
  norwegian,
  portuguese,
  romanian,
  russian,
  serbian,
  spanish,
  swedish,
  tamil,
  turkish,
  ukrainian,
};

/** Letters and digits of any script form tokens; everything else separates them. */
const SEPARATOR = /[^\p{L}\p{N}]+/u;

/** Text -> terms, the same way at index and at query time. */
export interface Analyzer {
  /** Identifies every setting that changes the terms (part of index cache keys). */
  readonly key: string;
  tokenize: (text: string) => string[];
  /** One raw token -> its index term, or null when dropped (stop word, too short). */
  processTerm(token: string): string | null;
  /** tokenize + processTerm, dropped terms removed. */
  analyze(text: string): string[];
}

export function createAnalyzer(config: AnalyzerConfig): Analyzer {
  const stopList =
    config.stopwords === 'english'
      ? ENGLISH_STOPWORDS
      : config.stopwords === 'indonesian'
        ? INDONESIAN_STOPWORDS
        : config.stopwords === 'none'
          ? []
          : config.stopwords;
  const stopwords = new Set(stopList.map((w) => (config.lowercase ? w.toLowerCase() : w)));
  const stem = config.stemmer === 'none' ? undefined : STEMMERS[config.stemmer];
  const { minLength, lowercase } = config;
  // Stemming is the slow part; corpora repeat words a lot, so memoise it (bounded).
  const stemCache = new Map<string, string>();

  const processTerm = (token: string): string | null => {
    if (token.length < minLength) return null;
    const t = lowercase ? token.toLowerCase() : token;
    if (stopwords.has(t)) return null;
    if (!stem) return t;
    let s = stemCache.get(t);
    if (s === undefined) {
      s = stem(t);
      if (stemCache.size > 200_000) stemCache.clear();
      stemCache.set(t, s);
    }
    return s;
  };
  const tokenize = (text: string): string[] => text.split(SEPARATOR).filter((t) => t.length > 0);
  return {
    key: stableStringify(config),
    tokenize,
    processTerm,
    analyze(text) {
      const out: string[] = [];
      for (const token of tokenize(text)) {
        const term = processTerm(token);
        if (term) out.push(term);
      }
      return out;
    },
  };
}

/**
 * The analyzer of a config: its lexical stage's, else the default one. What LSA, snippets and the access check's
 * term index use, so that they split text like the index does.
 */
export function configAnalyzer(config: Pick<RankConfig, 'lexical'>): Analyzer {
  return createAnalyzer(config.lexical?.analyzer ?? DEFAULT_ANALYZER);
}
