import { verifyView } from '../../core/session/check-acl';
import { shortText, visibleText } from '../../core/util/visible-text';
import type { SearchView } from '../../core/session/search-view';
import { modeLabel } from '../../core/config';
import { textTable, type Cell } from '../../core/report/table';
import { STAGE_NAMES } from '../../core/run/types';
import { InputError } from '../../core/util/diagnostics';
import { formatChoice, intFlag, parse } from '../args';
import type { Io } from '../io';
import { WORKSPACE_OPTIONS, openForOneQuery } from '../workspace-options';

export const SEARCH_USAGE = `ranklab search [--workspace DIR] [--config NAME|FILE] [--as PRINCIPAL] [--principals FILE]
               [--page-size N] [--verify] [--format table|json] [--strict] "query"
  Runs one query and shows what that principal would see: ranked results with rank and score per stage,
  snippets, the total hit count and tag facets, every part from permitted documents only. --verify re-reads
  the files of every document behind the page, the hit count and the facets, and drops (and no longer counts)
  any the access rule no longer allows; without --as it checks that each is still in its file.`;

export async function searchCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      ...WORKSPACE_OPTIONS,
      config: { type: 'string', short: 'c' },
      as: { type: 'string' },
      'page-size': { type: 'string' },
      verify: { type: 'boolean' },
      format: { type: 'string', short: 'f' },
      help: { type: 'boolean', short: 'h' },
    },
    { positionals: 'query' },
  );
  if (values.help) return (io.out(SEARCH_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const query = positionals.join(' ').trim();
  if (!query) throw new InputError('a query is required: ranklab search "query"');
  const pageSize = intFlag(values['page-size'], '--page-size', 1);
  const { session, config } = openForOneQuery(values, io);
  let view: SearchView = await session.searchView(config, query, { principal: values.as, pageSize });
  if (values.verify) view = verifyView(session, values.as, view).view;
  const notes = [...view.notes];
  if (!values.as) notes.push('no --as: unrestricted search (every document)');

  if (format === 'json') {
    io.out(
      JSON.stringify(
        {
          query,
          config: config.name,
          principal: values.as ?? null,
          total: view.total,
          results: view.results.map((r) => ({ id: r.id, score: r.score, title: r.title, stages: r.stages, snippet: r.snippet })),
          facets: view.facets,
          notes,
        },
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  const stages = STAGE_NAMES.filter((s) => view.results.some((r) => r.stages[s]));
  const out: string[] = [];
  out.push(
    `"${shortText(query)}": ${view.total} matching document(s)${values.as ? ` visible to ${values.as}` : ''}; showing ${view.results.length} (config ${config.name}, ${modeLabel(config)}, ${config.acl.mode})`,
    '',
  );
  if (view.results.length) {
    out.push(
      textTable(
        ['#', 'id', 'score', ...stages.map((s) => `${s} rank/score`), 'title'],
        view.results.map(
          (r, i) =>
            [
              String(i + 1),
              r.id,
              r.score,
              ...stages.map((s) => (r.stages[s] ? `${r.stages[s]!.rank} / ${r.stages[s]!.score.toFixed(4)}` : '-')),
              shortText(r.title, 60),
            ] as Cell[],
        ),
      ),
    );
    out.push('');
    view.results.forEach((r, i) => {
      if (r.snippet) out.push(`${i + 1}. ${r.id}: ${visibleText(r.snippet)}`);
    });
  }
  const tags = Object.entries(view.facets.tags);
  if (tags.length)
    out.push(
      '',
      `tags: ${tags
        .slice(0, 20)
        .map(([t, n]) => `${t} (${n})`)
        .join(', ')}${tags.length > 20 ? `, … ${tags.length - 20} more` : ''}`,
    );
  for (const n of notes) out.push(`note: ${n}`);
  io.out(out.join('\n') + '\n');
  return 0;
}
