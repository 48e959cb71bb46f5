/**
 * A document's explanation in the query detail (the core's `ranklab explain`, asked for with `explainDocument`):
 * the one-line reason, then each config's steps — the lexical sum term by term, the vector similarity and whether
 * HNSW or exact search produced it, the fused lists' contributions, the rerank, where it fell out. Every string
 * (fields, terms, notes, config names, errors) is inserted as text.
 */
import type { DocExplanation, ExplainSideView, ExplainStepView } from '../../src/protocol/dashboard';
import { type Child, data, h } from '../dom';
import { fmt } from './format';

export function explainLoading(): HTMLElement {
  return h('div', { class: 'explain muted', attrs: { 'aria-busy': 'true' } }, 'Explaining…');
}

export function explainError(message: string): HTMLElement {
  return h('div', { class: 'explain' }, h('p', { class: 'error explain-error', dir: 'auto' }, message));
}

export function renderExplanation(e: DocExplanation): HTMLElement {
  if (e.error) return explainError(e.error);
  if (!e.visible)
    return h(
      'div',
      { class: 'explain' },
      h('p', { class: 'muted' }, 'Not visible to ', data(e.principal ?? ''), ': nothing is said about it.'),
    );
  return h(
    'div',
    { class: 'explain', attrs: { 'aria-label': `Explanation of ${e.docId}` } },
    e.reason !== undefined ? h('p', { class: 'explain-reason', dir: 'auto' }, h('strong', {}, 'Reason: '), e.reason) : null,
    ...e.sides.map(sideBlock),
  );
}

function sideBlock(s: ExplainSideView): HTMLElement {
  const where =
    s.rank !== null
      ? `rank ${s.rank}, score ${fmt(s.score, 6)}`
      : `not ranked: fell out at ${s.fellOut?.step ?? '–'} (${s.fellOut?.note ?? '–'})`;
  return h(
    'div',
    { class: 'explain-side', attrs: { 'data-side': s.side } },
    h('h4', {}, s.side === 'baseline' ? 'Baseline ' : 'Candidate ', data(s.config), h('span', { class: 'muted' }, ` (${s.mode}): `), where),
    ...s.steps.map(stepBlock),
    s.notes.length ? h('ul', { class: 'explain-notes muted' }, ...s.notes.map((n) => h('li', { dir: 'auto' }, n))) : null,
  );
}

function stepBlock(s: ExplainStepView): HTMLElement {
  const parts: Child[] = [
    h('p', { class: `explain-step outcome-${s.outcome}` }, h('strong', { title: s.about }, s.step), ': ', data(s.note)),
  ];
  if (s.lexical && s.lexical.parts.length) {
    const lx = s.lexical;
    // The field's boost rides on its name (×3) when it is not 1, to keep the table narrow enough for one list's width.
    parts.push(
      table(
        ['field', 'term', 'tf', 'idf', 'norm', 'contribution'],
        lx.parts.map((p) => [
          h('span', { title: `boost ${p.boost}` }, data(p.field), p.boost !== 1 ? ` ×${p.boost}` : ''),
          p.term === p.queryTerm
            ? data(p.term)
            : h('span', { title: `${p.match} expansion of the query term` }, data(p.queryTerm), ` → ${p.match} `, data(p.term)),
          String(p.tf),
          fmt(p.idf, 3),
          fmt(p.lengthNorm, 3),
          fmt(p.contribution, 4),
        ]),
        ['sum', '', '', '', '', fmt(lx.sum, 4)],
        'lexical-parts',
      ),
    );
    if (lx.missingTerms.length)
      parts.push(
        h(
          'p',
          { class: 'muted' },
          `not in a searched field (${lx.combineWith}): `,
          ...lx.missingTerms.flatMap((t, i) => [i ? ', ' : '', data(t)]),
        ),
      );
  }
  if (s.vector) {
    const v = s.vector;
    const where = s.rank !== null ? `rank ${s.rank} of the vector list` : `not in the vector list`;
    parts.push(
      h(
        'p',
        { class: 'explain-vector' },
        // Not in the list: the similarity is exact search's, whatever searched.
        `similarity ${fmt(v.similarity)}${s.rank === null ? ' (exact search)' : ''}, ${where} (depth ${v.depth}, ${v.producedBy === 'hnsw' ? 'HNSW' : 'exact search'})`,
        v.producedBy === 'hnsw'
          ? `; exact search: rank ${v.exactRank ?? '–'}, similarity ${fmt(v.exactSimilarity)}${v.differsFromExact ? ' (differs)' : ' (same)'}`
          : '',
      ),
    );
  }
  if (s.fusion) {
    const f = s.fusion;
    parts.push(
      table(
        ['list', 'rank', 'weight', 'weight/(k+rank)'],
        f.lists.map((l) => [data(l.name), l.rank === null ? '–' : String(l.rank), String(l.weight), fmt(l.contribution, 6)]),
        [`sum (k ${f.k}, depth ${f.depth})`, '', '', fmt(f.sum, 6)],
        'fusion-parts',
      ),
    );
  }
  if (s.rerank) {
    const r = s.rerank;
    parts.push(
      h(
        'p',
        { class: 'explain-rerank' },
        `model score ${fmt(r.modelScore)}; rank ${r.rankBefore ?? '–'} before → ${r.rankAfter ?? '–'} after (top ${r.topN} reranked)`,
      ),
    );
  }
  return h('div', { class: 'explain-step-block' }, ...parts);
}

function table(head: string[], rows: Child[][], foot: Child[], cls: string): HTMLElement {
  // Numbers right-aligned: every column after the name columns (field and term; list).
  const names = head[0] === 'field' ? 2 : 1;
  const num = (i: number) => (i >= names ? 'num' : '');
  return h(
    'div',
    { class: 'explain-scroll' },
    h(
      'table',
      { class: `grid explain-table ${cls}` },
      h('thead', {}, h('tr', {}, ...head.map((t, i) => h('th', { class: num(i) }, t)))),
      h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c, i) => h('td', { class: num(i) }, c))))),
      h('tfoot', {}, h('tr', {}, ...foot.map((c, i) => h('td', { class: num(i) }, c)))),
    ),
  );
}
