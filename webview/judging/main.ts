/**
 * Ranklab judging view (runs in the webview): one unjudged (query, document) pair at a time, graded with the
 * buttons or the keys 0–3, s (skip), u (undo), ? (help). Every grade is a request the host answers after writing
 * it to the judgments file, with the next pair. Corpus text (titles, passages, queries) is inserted as text nodes;
 * highlighted terms are <mark> elements holding text nodes: nothing is ever parsed as HTML.
 * Protocol: src/protocol/judging.ts over the shared client (webview/ipc.ts).
 */
import {
  GRADE_LABELS,
  type HighlightedText,
  type JudgingMessages,
  type JudgingState,
  type JudgingView,
  judgingProtocol,
} from '../../src/protocol/judging';
import { h } from '../dom';
import { WebviewClient } from '../ipc';

const client = new WebviewClient<JudgingMessages, JudgingState>(judgingProtocol, {
  show: (params) => render(params.view),
});
let state: JudgingState = client.state ?? {};
let busy = false;
let helpOpen = false;
const app = document.getElementById('app')!;

// ---------------------------------------------------------------- DOM helpers (text only): ../dom.ts

/** Text with <mark> around the highlighted ranges; every piece is a text node. */
function highlighted(tag: 'p' | 'span', t: HighlightedText, props: { class?: string; id?: string } = {}): HTMLElement {
  const el = h(tag, props);
  if (t.cutStart) el.append('…');
  let at = 0;
  for (const [start, end] of t.marks) {
    if (start < at || end > t.text.length) continue;
    el.append(t.text.slice(at, start), h('mark', {}, t.text.slice(start, end)));
    at = end;
  }
  el.append(t.text.slice(at));
  if (t.cutEnd) el.append('…');
  return el;
}

const fmt = (v: number) => v.toFixed(3);

// ---------------------------------------------------------------- rendering

function render(view: JudgingView): void {
  state = { view };
  client.state = state;
  const p = view.pair;
  const progress = view.progress;
  const header = h(
    'header',
    {},
    h('h1', {}, 'Judge unjudged documents'),
    h(
      'p',
      { class: 'muted', id: 'pool' },
      `Pool: the top ${view.depth} of ${view.configs.join(', ')} · grades go to ${view.writesTo}${view.rater ? ` as ${view.rater}` : ''}`,
    ),
    h('p', { id: 'progress' }, `${progress.graded} / ${progress.size} graded`, progress.skipped ? ` · ${progress.skipped} skipped` : ''),
    h('progress', { id: 'progress-bar' }),
    h(
      'ul',
      { id: 'judged', class: 'judged' },
      ...Object.entries(progress.judged).map(([config, j]) =>
        h('li', {}, `judged@${j.k} ${config}: `, h('strong', {}, fmt(j.now)), ` now, ${fmt(j.projected)} when the pool is graded`),
      ),
    ),
  );
  const bar = header.querySelector('progress')!;
  bar.max = Math.max(1, progress.size);
  bar.value = progress.graded;
  const parts: HTMLElement[] = [header];
  if (view.failed.length)
    parts.push(h('ul', { class: 'error' }, ...view.failed.map((f) => h('li', {}, `${f.config} not pooled: ${f.error}`))));
  if (!p) {
    parts.push(
      h(
        'p',
        { id: 'done' },
        progress.size ? 'Every pair of the pool is graded.' : 'Nothing to judge: every document these configs show is graded.',
      ),
    );
  } else {
    const openQuery = h('a', { title: 'Open the query in its judgments file' }, p.qid);
    openQuery.href = '#';
    openQuery.addEventListener('click', (e) => {
      e.preventDefault();
      client.command('openQuery', { qid: p.qid });
    });
    const openDoc = h(
      'a',
      { id: 'open-document', title: p.doc.path ? `${p.doc.path}${p.doc.line ? `:${p.doc.line}` : ''}` : 'not in the corpus' },
      'open file',
    );
    openDoc.href = '#';
    openDoc.addEventListener('click', (e) => {
      e.preventDefault();
      client.command('openDocument', { docId: p.docId });
    });
    parts.push(
      h(
        'section',
        { id: 'query' },
        h('h2', {}, 'Query ', openQuery, p.query.split ? h('span', { class: 'badge' }, p.query.split) : null),
        h('p', { class: 'query-text', id: 'query-text' }, p.query.text || '(no text)'),
        p.query.tags.length ? h('p', { class: 'tags' }, ...p.query.tags.map((t) => h('span', { class: 'badge' }, t))) : null,
        existingList(p.existing),
      ),
      h(
        'section',
        { id: 'document' },
        h('h2', {}, 'Document ', h('code', { id: 'doc-id' }, p.docId), ' · ', openDoc),
        highlighted('p', p.doc.title, { class: 'doc-title', id: 'doc-title' }),
        h(
          'p',
          { class: 'muted', id: 'ranks' },
          `${p.reason} · ` +
            Object.entries(p.ranks)
              .map(([c, r]) => `rank ${r} in ${c}`)
              .join(', ') +
            (p.grade !== undefined ? ` · graded ${p.grade}` : ''),
        ),
        highlighted('p', p.doc.passage, { class: 'passage', id: 'passage' }),
      ),
      gradeButtons(p.qid, p.docId, p.grade),
    );
  }
  parts.push(h('p', { id: 'status', class: 'muted' }, view.message ?? 'Keys: 0–3 grade · s skip · u undo · ? help'), helpPanel());
  app.replaceChildren(...parts);
}

function existingList(existing: { docId: string; title?: string; grade: number }[]): HTMLElement {
  return h(
    'details',
    { id: 'existing' },
    h('summary', {}, `${existing.length} judged document${existing.length === 1 ? '' : 's'} for this query`),
    h(
      'ul',
      {},
      ...existing.map((e) =>
        h(
          'li',
          {},
          h('span', { class: `grade grade-${Math.min(e.grade, 3)}` }, String(e.grade)),
          ' ',
          h('code', {}, e.docId),
          e.title ? ` — ${e.title}` : '',
        ),
      ),
    ),
  );
}

function gradeButtons(qid: string, docId: string, current: number | undefined): HTMLElement {
  const buttons = GRADE_LABELS.map(({ grade, label, meaning }) => {
    const b = h(
      'button',
      { id: `grade-${grade}`, class: `grade-button${current === grade ? ' current' : ''}`, title: meaning },
      h('kbd', {}, String(grade)),
      ` ${label}`,
    );
    b.addEventListener('click', () => void act('grade', { qid, docId, grade }));
    return b;
  });
  const skip = h('button', { id: 'skip', class: 'secondary' }, h('kbd', {}, 's'), ' Skip');
  skip.addEventListener('click', () => void act('skip', { qid, docId }));
  const undo = h('button', { id: 'undo', class: 'secondary' }, h('kbd', {}, 'u'), ' Undo');
  undo.addEventListener('click', () => void act('undo', {}));
  const help = h('button', { id: 'help-button', class: 'secondary' }, h('kbd', {}, '?'), ' Help');
  help.addEventListener('click', toggleHelp);
  return h('section', { id: 'grades', class: 'grades' }, ...buttons, skip, undo, help);
}

function helpPanel(): HTMLElement {
  const panel = h(
    'section',
    { id: 'help', class: helpOpen ? 'help' : 'help hidden' },
    h('h2', {}, 'Grading'),
    h(
      'dl',
      {},
      ...GRADE_LABELS.flatMap(({ grade, label, meaning }) => [h('dt', {}, h('kbd', {}, String(grade)), ` ${label}`), h('dd', {}, meaning)]),
    ),
    h(
      'p',
      {},
      h('kbd', {}, 's'),
      ' skips the pair (it comes back at the end), ',
      h('kbd', {}, 'u'),
      ' takes back the last grade or skip, ',
      h('kbd', {}, '?'),
      ' shows this.',
    ),
    h('p', { class: 'muted' }, 'Each grade is written to the judgments file at once; closing the editor loses nothing.'),
  );
  return panel;
}

function toggleHelp(): void {
  helpOpen = !helpOpen;
  document.getElementById('help')?.classList.toggle('hidden', !helpOpen);
}

// ---------------------------------------------------------------- actions

type Act = { grade: { qid: string; docId: string; grade: number }; skip: { qid: string; docId: string }; undo: Record<string, never> };

async function act<K extends keyof Act>(method: K, params: Act[K]): Promise<void> {
  if (busy) return; // one write at a time: a key pressed twice does not grade the next pair unseen
  busy = true;
  document.body.classList.add('busy');
  try {
    render(await client.request(method, params as never));
  } catch (e) {
    const status = document.getElementById('status');
    if (status) {
      status.className = 'error';
      status.textContent = `Not saved: ${(e as Error).message}`;
    }
  } finally {
    busy = false;
    document.body.classList.remove('busy');
  }
}

document.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target as HTMLElement | null;
  if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) return;
  const pair = state.view?.pair;
  if (e.key === '?') return (e.preventDefault(), toggleHelp());
  if (e.key === 'u') return (e.preventDefault(), void act('undo', {}));
  if (!pair) return;
  if (/^[0-3]$/.test(e.key)) return (e.preventDefault(), void act('grade', { qid: pair.qid, docId: pair.docId, grade: Number(e.key) }));
  if (e.key === 's') return (e.preventDefault(), void act('skip', { qid: pair.qid, docId: pair.docId }));
});

// Draw the last known view at once (panel restored), then ask the host for the current one.
if (state.view) render(state.view);
client.ready();
