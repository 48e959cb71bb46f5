/**
 * The detail of one query: baseline and candidate result lists side by side, each document with its title (and
 * snippet when the run has one), its grade (or "unjudged") and how it moved between the two lists. A row expands
 * (click, Enter or Space) into the document's explanation under both configs (explain.ts).
 */
import type { DocExplanation, DocRow, QueryDetail } from '../../src/protocol/dashboard';
import { append, data, h, legend, linkButton, tip } from '../dom';
import { explainError, explainLoading, renderExplanation } from './explain';
import { fmt, fmtDelta } from './format';

export interface DetailCallbacks {
  openDocument: (docId: string, runId: string) => void;
  openQuery: (qid: string) => void;
  /** Grade an unjudged document of this query in the judging view (pooling the comparison's two configs). */
  judge: (qid: string, docId: string) => void;
  /** Why the document is where it is, under both configs (asked once per document of the query). */
  explain: (docId: string) => Promise<DocExplanation>;
}

/** Expands or folds a document's row: the explanation goes in a row of its own right below it. */
function toggleExplanation(row: HTMLTableRowElement, docId: string, explain: (docId: string) => Promise<DocExplanation>): void {
  const next = row.nextElementSibling;
  if (next?.classList.contains('explain-row')) {
    next.remove();
    row.setAttribute('aria-expanded', 'false');
    return;
  }
  const cell = h('td', { attrs: { colspan: '4' } }, explainLoading());
  const box = h('tr', { class: 'explain-row', attrs: { 'data-explains': docId } }, cell);
  row.after(box);
  row.setAttribute('aria-expanded', 'true');
  explain(docId).then(
    (e) => cell.replaceChildren(renderExplanation(e)),
    (err: unknown) => cell.replaceChildren(explainError((err as Error)?.message ?? String(err))),
  );
}

/** How a document moved, seen from one list: `rank` here, `otherRank` in the other list (undefined: not in it). */
export function moveMark(d: DocRow, side: 'baseline' | 'candidate'): { text: string; cls: string; title: string } {
  if (d.otherRank === undefined) {
    return side === 'candidate'
      ? { text: 'new', cls: 'better', title: "not in the baseline's list" }
      : { text: 'out', cls: 'worse', title: "not in the candidate's list" };
  }
  // Places gained in the candidate: positive = higher (better placed) in the candidate.
  const gained = side === 'candidate' ? d.otherRank - d.rank : d.rank - d.otherRank;
  if (gained === 0) return { text: '=', cls: 'muted', title: 'same place in both lists' };
  return gained > 0
    ? {
        text: `▲${gained}`,
        cls: 'better',
        title: `${gained} place(s) higher in the candidate (baseline #${side === 'candidate' ? d.otherRank : d.rank}, candidate #${side === 'candidate' ? d.rank : d.otherRank})`,
      }
    : {
        text: `▼${-gained}`,
        cls: 'worse',
        title: `${-gained} place(s) lower in the candidate (baseline #${side === 'candidate' ? d.otherRank : d.rank}, candidate #${side === 'candidate' ? d.rank : d.otherRank})`,
      };
}

export function gradeCell(grade: number | null | undefined): HTMLElement {
  return grade === undefined || grade === null
    ? h('td', { class: 'num unjudged', title: 'not judged: counts as not relevant' }, 'unjudged')
    : h('td', { class: `num grade grade-${Math.max(0, Math.min(grade, 3))}`, title: `grade ${grade} of 0–3` }, String(grade));
}

/** The grade cell of a listed document; an unjudged one carries a "judge" action. */
function gradeOf(d: DocRow, qid: string, cb: DetailCallbacks): HTMLElement {
  const cell = gradeCell(d.grade);
  if (d.grade === undefined || d.grade === null) {
    const judge = h('button', { class: 'secondary judge-action', title: `Grade ${tip(d.id, 80)} for ${tip(qid, 80)}` }, 'judge');
    judge.type = 'button';
    judge.dataset.docId = d.id;
    judge.addEventListener('click', (e) => {
      e.stopPropagation();
      cb.judge(qid, d.id);
    });
    cell.append(' ', judge);
  }
  return cell;
}

function docList(
  label: string,
  side: QueryDetail['baseline'],
  which: 'baseline' | 'candidate',
  qid: string,
  cb: DetailCallbacks,
  explain: (docId: string) => Promise<DocExplanation>,
): HTMLElement {
  if (!side) return h('div', { class: 'docs' }, h('h3', {}, label), h('p', { class: 'muted' }, 'This query is not in this run.'));
  const rows = side.docs.map((d) => {
    const mark = moveMark(d, which);
    const titleLine = d.title ? h('div', { class: 'doc-title', dir: 'auto', title: tip(d.title) }, d.title) : null;
    const row = h(
      'tr',
      {
        class: 'doc-row',
        title: 'Click, Enter or Space: why it is here',
        attrs: { 'data-doc': d.id, tabindex: '0', 'aria-expanded': 'false' },
      },
      h('td', { class: 'num' }, String(d.rank)),
      h(
        'td',
        { class: 'doc' },
        titleLine,
        h(
          'div',
          { class: 'doc-id' },
          linkButton(data(d.id), `Open ${tip(d.id, 80)}`, () => cb.openDocument(d.id, side.runId)),
          h('span', { class: 'muted nowrap', title: 'ranking score' }, ` · ${fmt(d.score, 3)}`),
        ),
        d.snippet ? h('div', { class: 'doc-snippet muted', dir: 'auto' }, d.snippet) : null,
        d.reason
          ? h('div', { class: 'doc-reason', dir: 'auto', title: tip(d.reason) }, h('span', { class: 'muted' }, 'Why it moved: '), d.reason)
          : null,
      ),
      gradeOf(d, qid, cb),
      h('td', { class: `num move ${mark.cls}`, title: mark.title }, mark.text),
    );
    // Buttons inside the row (open, judge) keep their own action; the row's own keys and clicks toggle.
    row.addEventListener('click', (e) => {
      if (!(e.target as Element).closest('button, a')) toggleExplanation(row, d.id, explain);
    });
    row.addEventListener('keydown', (e) => {
      if (e.target !== row || (e.key !== 'Enter' && e.key !== ' ')) return;
      e.preventDefault();
      toggleExplanation(row, d.id, explain);
    });
    return row;
  });
  return h(
    'div',
    { class: 'docs', attrs: { 'data-side': which } },
    h('h3', {}, label, side.metric !== undefined ? h('span', { class: 'muted nowrap' }, ` ${fmt(side.metric)}`) : null),
    h('p', { class: 'run-name muted', dir: 'auto' }, side.label),
    h(
      'table',
      { class: 'grid docs-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { class: 'num', title: 'rank in this list' }, '#'),
          h('th', { title: 'title, then the document id and its ranking score' }, 'Document'),
          h('th', { class: 'num', title: 'grade from the judgments, 0–3' }, 'Grade'),
          h('th', { class: 'num', title: 'how the document moved between baseline and candidate' }, 'Move'),
        ),
      ),
      h('tbody', {}, ...rows),
    ),
  );
}

export function renderDetail(box: HTMLElement, d: QueryDetail, metric: string | undefined, cb: DetailCallbacks): void {
  const m = d.moves;
  box.replaceChildren();
  // One request per document of this query, whichever list it is expanded in (a failure may be asked again).
  const asked = new Map<string, Promise<DocExplanation>>();
  const explain = (docId: string) => {
    let p = asked.get(docId);
    if (!p) {
      asked.set(docId, (p = cb.explain(docId)));
      p.then(
        (e) => {
          if (e.error) asked.delete(docId);
        },
        () => asked.delete(docId),
      );
    }
    return p;
  };
  append(box, [
    h(
      'h2',
      {},
      'Query ',
      linkButton(data(d.qid), 'Open in the judgments', () => cb.openQuery(d.qid)),
      d.delta !== undefined
        ? h('span', { class: `nowrap ${d.delta > 1e-9 ? 'better' : d.delta < -1e-9 ? 'worse' : 'muted'}` }, ` Δ ${fmtDelta(d.delta)}`)
        : null,
    ),
    h('p', { class: 'query-text', dir: 'auto' }, d.text),
    d.tags.length ? h('p', { class: 'tags' }, ...d.tags.map((t) => h('span', { class: 'tag' }, data(t)))) : null,
    d.baseline && d.candidate
      ? h(
          'p',
          { class: 'muted' },
          `In the top ${Math.max(d.baseline.docs.length, d.candidate.docs.length)}: ${m.entered} entered, ${m.left} left, ${m.up} moved up, ${m.down} moved down.`,
        )
      : null,
    h(
      'div',
      { class: 'side-by-side' },
      docList('Baseline', d.baseline, 'baseline', d.qid, cb, explain),
      docList('Candidate', d.candidate, 'candidate', d.qid, cb, explain),
    ),
    legend(
      `Lists as ranked, top ${d.candidate?.docs.length ?? d.baseline?.docs.length ?? 0}${metric ? `; the figure next to each is the query's ${metric}` : ''}; under each title: the document id (click to open it) and its ranking score. `,
      'Grade: 0 (not relevant) to 3 (best) from the judgments; ',
      h('i', {}, 'unjudged'),
      ': no judgment, counted as not relevant (its "judge" button grades it in the judging view). ',
      "Move: ▲n / ▼n = n places higher / lower in the candidate than in the baseline; new = not in the baseline's list; out = not in the candidate's list; = unchanged. ",
      '"Why it moved": the one-line reason of a document that entered, left or moved. ',
      "Click a document (or Enter / Space on it) for why it is there: each config's steps, the BM25 sum term by term, and why it moved.",
    ),
  ]);
}
