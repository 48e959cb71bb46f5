/**
 * A generated IR collection in the layout of the real ones (a BEIR folder: corpus.jsonl with numeric ids, title and
 * text; queries.jsonl; a space-separated 4-column qrels.tsv), for tests that need a realistic corpus as data rather
 * than a cross-check against published figures, so that they run in a clone with nothing beside it.
 *
 * Documents belong to topics: a title and a body drawn from their topic's words and from general words (Zipf-like),
 * with English stop words, inflected forms (for the stemmer), capitals and punctuation (for the tokenizer). A query is
 * written from one document of a topic (graded 2), other documents of the topic are graded 1, and a few of other
 * topics 0: the judgments come from how the data was made, not from any ranking.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mulberry32 } from '../../src/core/util/random';
import { syllables } from './synthetic-workspace';

export interface SyntheticCollectionOptions {
  docs: number;
  queries: number;
  seed?: number;
}

const STOPWORDS = ['the', 'of', 'and', 'a', 'in', 'to', 'is', 'for', 'with', 'on', 'by', 'are', 'from', 'what', 'how'];
const SUFFIXES = ['', '', '', 's', 'ing', 'ed', 'ation', 'ly'];
const TOPIC_WORDS = 40;

const made = new Map<string, string>();

/** The folder of a collection made for these options (written once per process into the OS temp folder). */
export function syntheticCollection(opts: SyntheticCollectionOptions): string {
  const key = JSON.stringify([opts.docs, opts.queries, opts.seed ?? 11]);
  let dir = made.get(key);
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), 'ranklab-collection-'));
    writeSyntheticCollection(dir, opts);
    made.set(key, dir);
  }
  return dir;
}

/** Writes corpus.jsonl, queries.jsonl and qrels.tsv into `dir` (which must exist). */
export function writeSyntheticCollection(dir: string, opts: SyntheticCollectionOptions): void {
  const rng = new Mulberry32(opts.seed ?? 11);
  const uniform = () => rng.nextUint32() / 2 ** 32;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(uniform() * xs.length)];
  const topics = Math.max(3, Math.round(opts.docs / 40));
  const general = Array.from({ length: 2000 }, (_, i) => syllables(i));
  const topical = Array.from({ length: topics * TOPIC_WORDS }, (_, i) => syllables(2000 + i));
  // Zipf-like: the cube of a uniform draw picks low ranks far more often.
  const generalWord = () => general[Math.floor(uniform() ** 3 * general.length)];
  const topicWord = (t: number) => topical[t * TOPIC_WORDS + Math.floor(uniform() ** 1.5 * TOPIC_WORDS)];
  const word = (t: number, topicShare: number) => {
    if (uniform() < 0.2) return pick(STOPWORDS);
    return (uniform() < topicShare ? topicWord(t) : generalWord()) + pick(SUFFIXES);
  };
  const sentence = (words: string[]) => {
    const text = words.map((w, i) => (i > 0 && i % 9 === 0 ? `${w},` : w)).join(' ');
    return text[0].toUpperCase() + text.slice(1);
  };
  const docs = Array.from({ length: opts.docs }, (_, i) => {
    const topic = i % topics;
    const title = sentence(Array.from({ length: 4 + Math.floor(uniform() * 7) }, () => word(topic, 0.7)));
    const body = Array.from(
      { length: 2 + Math.floor(uniform() * 6) },
      () => sentence(Array.from({ length: 8 + Math.floor(uniform() * 14) }, () => word(topic, 0.5))) + '.',
    ).join(' ');
    return { id: String(i + 1), title, text: body, topic };
  });
  const qrels: string[] = [];
  const queries = Array.from({ length: opts.queries }, (_, q) => {
    const id = String(q + 1);
    const topic = q % topics;
    const members = docs.filter((d) => d.topic === topic);
    const target = pick(members);
    const targetWords = `${target.title} ${target.text}`
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w && !STOPWORDS.includes(w));
    // Like real queries: words of the wanted document, of its topic, common words and stop words.
    const words = [
      ...Array.from({ length: 2 + (q % 4) }, () => pick(targetWords)),
      topicWord(topic),
      ...Array.from({ length: 1 + (q % 3) }, generalWord),
      pick(STOPWORDS),
    ];
    const grades = new Map<string, number>([[target.id, 2]]);
    for (let k = 0; k < 2 + (q % 5); k++) {
      const member = pick(members).id;
      if (!grades.has(member)) grades.set(member, 1);
    }
    for (let k = 0; k < 2; k++) {
      const other = pick(docs);
      if (!grades.has(other.id) && other.topic !== topic) grades.set(other.id, 0);
    }
    for (const [doc, grade] of grades) qrels.push(`${id} 0 ${doc} ${grade}`);
    return { id, text: `${sentence(words)}?` };
  });
  writeFileSync(join(dir, 'corpus.jsonl'), docs.map(({ id, title, text }) => JSON.stringify({ id, title, text })).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  writeFileSync(join(dir, 'qrels.tsv'), qrels.join('\n') + '\n');
}
