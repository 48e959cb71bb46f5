// The passage a judge reads: the window with the most query terms, cut at word boundaries, and the ranges of the
// terms found the way the index finds them (case, stop words, stemming) — plain text and ranges, never markup.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { passageAround } from '../../../src/core/judging/passage';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';

const plain = createAnalyzer(DEFAULT_ANALYZER);
const marked = (t: { text: string; marks: Array<[number, number]> }) => t.marks.map(([s, e]) => t.text.slice(s, e));

it('a short body is shown whole with every query term marked, stop words not', () => {
  const r = passageAround(
    { title: 'Kopi Gayo <script>alert(1)</script>', body: 'Gayo   coffee from the\nhighlands of Aceh; the kopi is washed.' },
    'the kopi gayo',
    plain,
  );
  assert.equal(r.passage.text, 'Gayo coffee from the highlands of Aceh; the kopi is washed.');
  assert.deepEqual(marked(r.passage), ['Gayo', 'kopi']);
  assert.deepEqual(marked(r.title), ['Kopi', 'Gayo']);
  assert.equal(r.title.text, 'Kopi Gayo <script>alert(1)</script>', 'the title is text, as it is');
  assert.equal(r.passage.cutStart || r.passage.cutEnd, false);
});

it('a long body: the window holding the most distinct terms, cut at spaces, marked "cut" on both sides', () => {
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  const body = `${filler(60)} tubruk once here ${filler(40)} sambal matah recipe with sambal ${filler(60)}`;
  const r = passageAround({ title: 't', body }, 'sambal matah tubruk', plain, 120);
  assert.ok(r.passage.cutStart && r.passage.cutEnd);
  assert.deepEqual(marked(r.passage), ['sambal', 'matah', 'sambal']);
  assert.ok(r.passage.text.length <= 120);
  const at = body.indexOf(r.passage.text);
  assert.ok(at > 0, 'a contiguous piece of the (collapsed) body');
  assert.equal(body[at - 1], ' ', 'starts at a word');
  assert.equal(body[at + r.passage.text.length], ' ', 'ends at a word');
});

it('stemming analyzers mark inflected forms', () => {
  const stemmed = createAnalyzer({ ...DEFAULT_ANALYZER, stemmer: 'english' });
  const r = passageAround({ title: '', body: 'Brewing guides: we brewed it twice; brews differ.' }, 'brew', stemmed);
  assert.deepEqual(marked(r.passage), ['Brewing', 'brewed', 'brews']);
});
