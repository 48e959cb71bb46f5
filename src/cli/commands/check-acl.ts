import { type AclReport, LEAK_PLACES, aclFindings, checkAcl } from '../../core/session/check-acl';
import { textTable, type Cell } from '../../core/report/table';
import { InputError } from '../../core/util/diagnostics';
import { formatChoice, parse } from '../args';
import type { Io } from '../io';
import {
  type ConfigChoice,
  WORKSPACE_OPTIONS,
  configEntriesOf,
  interruptSignal,
  judgmentsOf,
  openWorkspace,
  principalsOf,
  readCorpus,
  reportInterrupted,
  enginesOnly,
  requireConfigs,
  usableConfigs,
} from '../workspace-options';

export const CHECK_ACL_USAGE = `ranklab check-acl [--workspace DIR] [--config NAME|FILE]... [--principals FILE] [--as PRINCIPAL]...
                  [--no-prefixes] [--allow-invalid-acl] [--acl-source auto|corpus|engine] [--format table|json] [--strict]
  Runs every labeled query, and the typing prefixes of each query for autocomplete, as every principal
  under every config, and verifies against the corpus files (read and evaluated by independent code) that no
  result, hit count, suggestion, facet or snippet comes from a document the principal may not see. Also
  reports page fill, recall as the principal and, for post-filter configs, the candidate depth needed to fill
  the page. Exit 1 on any leak, on an index filter that permits what the files forbid, on documents with
  invalid or misspelled access fields (--allow-invalid-acl: a warning), on documents public only through an
  acl.missingAcl that ranklab.json does not state, and when anything was left unchecked (a config that could
  not run, a principal entry with an error); 2 when nothing could be checked, or when acl.fields or acl.rule
  names a field no document (or an attribute no principal) has. An engine config is checked against the engine: its filter filled from each principal's
  attributes, every returned id and every document behind the hit count verified against the documents'
  access fields, read from the corpus files or (--acl-source engine, or a workspace without a corpus)
  fetched from the engine.`;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function checkAclCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...WORKSPACE_OPTIONS,
    config: { type: 'string', short: 'c', multiple: true },
    as: { type: 'string', multiple: true },
    'no-prefixes': { type: 'boolean' },
    'allow-invalid-acl': { type: 'boolean' },
    'acl-source': { type: 'string' },
    format: { type: 'string', short: 'f' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return (io.out(CHECK_ACL_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const aclSource = formatChoice(values['acl-source'], ['auto', 'corpus', 'engine'] as const, 'auto', '--acl-source');
  const { session, report: inputs } = openWorkspace(values, io);
  const entries = configEntriesOf(session, values.config);
  const { signal, dispose } = interruptSignal(io);
  const checked: string[] = [];
  let choice: ConfigChoice;
  let report: AclReport;
  try {
    const need = { optional: enginesOnly(entries) };
    await readCorpus(session, inputs, signal, need);
    judgmentsOf(session, inputs, 'all', need);
    principalsOf(session, inputs, values.as ?? []);
    choice = usableConfigs(session, inputs, entries);
    inputs.stopIfStrict();
    requireConfigs(choice);
    report = await checkAcl(session, {
      configs: choice.configs,
      principals: values.as,
      prefixes: !values['no-prefixes'],
      signal,
      aclSource,
      onProgress: values.verbose ? (m) => io.err(`[check-acl] ${m}\n`) : undefined,
      onConfigDone: (name) => checked.push(name),
    });
  } catch (e) {
    if (signal.aborted)
      return reportInterrupted(
        io,
        'configs',
        checked,
        entries.map((e) => e.name).filter((n) => !checked.includes(n)),
      );
    throw e;
  } finally {
    dispose();
  }
  for (const f of report.failed) io.err(`ranklab check-acl: config ${f.config} not checked: ${f.message}\n`);
  report.failed.unshift(...choice.failed.map((f) => ({ config: f.name, message: f.message }))); // reported above, at their lines
  if (report.configs.length === 0) throw new InputError(`no config could be checked (${report.failed.map((f) => f.config).join(', ')})`);
  const findings = aclFindings(report, { allowInvalidAcl: !!values['allow-invalid-acl'] });
  // Anything left unchecked (a config that could not run, a skipped principal) is among the failures: exit 1.
  const code = findings.failures.length ? 1 : 0;
  if (format === 'json') {
    io.out(JSON.stringify(report, null, 2) + '\n');
    return code;
  }
  const out: string[] = [];
  out.push(
    `Access check of ${session.root}: ${report.documents} documents (${report.documentsWithoutAcl} with none of the fields the rule reads, treated as ${report.missingAcl}; ${report.invalidAcl} with invalid access fields, visible to nobody), ${report.queries} queries, ${report.prefixes} typing prefixes`,
  );
  for (const c of report.configs) {
    const rows = Object.entries(report.byPrincipal[c.name]!); // checkAcl lists a config with its principals' figures
    const post = c.aclMode === 'post-filter';
    const source = report.aclSource?.[c.name];
    out.push(
      '',
      `${c.name} (${c.mode}, ${c.aclMode}, page ${c.pageSize}${source ? `; access fields from the ${source === 'engine' ? 'engine' : 'corpus files'}` : ''})`,
    );
    out.push(
      textTable(
        [
          'principal',
          'visible docs',
          'queries',
          'results',
          'prefixes',
          'suggestions',
          'violations',
          'page fill',
          'short/empty',
          `recall@${c.pageSize} (n)`,
          ...(post ? ['fill@candidates', 'fill possible', 'depth for 95%'] : []),
        ],
        rows.map(
          ([name, r]) =>
            [
              name,
              String(r.visibleDocuments),
              String(r.queries),
              String(r.resultsChecked),
              String(r.prefixes),
              String(r.suggestionsChecked),
              r.violations
                ? `${r.violations} (${LEAK_PLACES.filter((p) => r.byPlace[p])
                    .map((p) => `${p} ${r.byPlace[p]}`)
                    .join(', ')})`
                : '0',
              pct(r.pageFill),
              `${r.shortPages} / ${r.emptyPages}`,
              r.recall === null
                ? '-'
                : `${r.recall.toFixed(4)} (${r.recallQueries}${r.excludedQueries.length ? `, ${r.excludedQueries.length} left out` : ''})`,
              ...(post && r.postFilter
                ? [
                    `${pct(r.postFilter.fillAtCandidates)} @${r.postFilter.candidates}`,
                    pct(r.postFilter.fillPossible),
                    String(r.postFilter.depthFor95 ?? 'never'),
                  ]
                : []),
            ] as Cell[],
        ),
      ),
    );
  }
  if (report.violations.length) {
    out.push('', `${report.violations.length} violation(s):`);
    for (const v of report.violations.slice(0, 50))
      out.push(`  ${v.config} as ${v.principal}, "${v.query}": ${v.where} ${v.docId || '(count)'}: ${v.detail}`);
    if (report.violations.length > 50) out.push(`  … and ${report.violations.length - 50} more (--format json lists all)`);
  } else {
    out.push('', `No violations: ${report.checked} responses checked.`);
  }
  const p = report.principals;
  const decided = report.documents - report.documentsWithoutAcl - report.invalidAcl;
  // A config whose engine failed some queries was not checked completely (those queries are among the failures).
  const complete = report.configs.filter((c) => !Object.values(report.byPrincipal[c.name] ?? {}).some((r) => r.failedQueries)).length;
  out.push(
    `Checked ${p.checked.length} of ${p.total} principals, ${complete} of ${report.configs.length + report.failed.length} configs completely, ` +
      `${report.documents} documents (${decided} decided by the rule, ${report.documentsWithoutAcl} by acl.missingAcl (${report.missingAcl}${report.missingAclStated ? '' : ', not stated'}), ` +
      `${report.invalidAcl} visible to nobody for invalid or misspelled access fields).`,
  );
  if (findings.failures.length || findings.warnings.length) out.push('');
  for (const f of findings.failures) out.push(`FAILED: ${f}`);
  for (const w of findings.warnings) out.push(`warning: ${w}`);
  io.out(out.join('\n') + '\n');
  return code;
}
