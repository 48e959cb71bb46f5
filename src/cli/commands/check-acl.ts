import { type AclReport, LEAK_PLACES, aclFindings, checkAcl } from '../../core/session/check-acl';
import { textTable, type Cell } from '../../core/report/table';
import { InputError } from '../../core/util/diagnostics';
import { formatChoice, parse } from '../args';
import type { Io } from '../io';
import {
  type ConfigChoice, WORKSPACE_OPTIONS, configEntriesOf, interruptSignal, judgmentsOf, openWorkspace, principalsOf, readCorpus, reportInterrupted,
  requireConfigs, usableConfigs,
} from '../workspace-options';

export const CHECK_ACL_USAGE = `ranklab check-acl [--workspace DIR] [--config NAME|FILE]... [--principals FILE] [--as PRINCIPAL]...
                  [--no-prefixes] [--allow-invalid-acl] [--format table|json] [--strict]
  Runs every labeled query, and the typing prefixes of each query for autocomplete, as every principal
  under every config, and verifies against the corpus files (read and evaluated by independent code) that no
  result, hit count, suggestion, facet or snippet comes from a document the principal may not see. Also
  reports page fill, recall as the principal and, for post-filter configs, the candidate depth needed to fill
  the page. Exit 1 on any leak, on an index filter that permits what the files forbid, and on documents with
  invalid access fields (--allow-invalid-acl: a warning); 2 when a config could not be run (the others are
  still checked).`;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function checkAclCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...WORKSPACE_OPTIONS,
    config: { type: 'string', short: 'c', multiple: true },
    as: { type: 'string', multiple: true },
    'no-prefixes': { type: 'boolean' },
    'allow-invalid-acl': { type: 'boolean' },
    format: { type: 'string', short: 'f' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return io.out(CHECK_ACL_USAGE + '\n'), 0;
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const { session, report: inputs } = openWorkspace(values, io);
  const entries = configEntriesOf(session, values.config);
  const { signal, dispose } = interruptSignal(io);
  const checked: string[] = [];
  let choice: ConfigChoice;
  let report: AclReport;
  try {
    await readCorpus(session, inputs, signal);
    judgmentsOf(session, inputs);
    principalsOf(session, inputs, values.as ?? []);
    choice = usableConfigs(session, inputs, entries);
    inputs.stopIfStrict();
    requireConfigs(choice);
    report = await checkAcl(session, {
      configs: choice.configs, principals: values.as, prefixes: !values['no-prefixes'], signal,
      onProgress: values.verbose ? (m) => io.err(`[check-acl] ${m}\n`) : undefined,
      onConfigDone: (name) => checked.push(name),
    });
  } catch (e) {
    if (signal.aborted) return reportInterrupted(io, 'configs', checked, entries.map((e) => e.name).filter((n) => !checked.includes(n)));
    throw e;
  } finally {
    dispose();
  }
  for (const f of report.failed) io.err(`ranklab check-acl: config ${f.config} not checked: ${f.message}\n`);
  report.failed.unshift(...choice.failed.map((f) => ({ config: f.name, message: f.message }))); // reported above, at their lines
  if (report.configs.length === 0) throw new InputError(`no config could be checked (${report.failed.map((f) => f.config).join(', ')})`);
  const findings = aclFindings(report, { allowInvalidAcl: !!values['allow-invalid-acl'] });
  // A failed check wins over an unusable config (exit 2, as in eval): both need attention, the leak first.
  const code = findings.failures.length ? 1 : report.failed.length ? 2 : 0;
  if (format === 'json') {
    io.out(JSON.stringify(report, null, 2) + '\n');
    return code;
  }
  const out: string[] = [];
  out.push(`Access check of ${session.root}: ${report.documents} documents (${report.documentsWithoutAcl} with none of the fields the rule reads, treated as ${report.missingAcl}; ${report.invalidAcl} with invalid access fields, visible to nobody), ${report.queries} queries, ${report.prefixes} typing prefixes`);
  for (const c of report.configs) {
    const rows = Object.entries(report.byPrincipal[c.name]);
    const post = c.aclMode === 'post-filter';
    out.push('', `${c.name} (${c.mode}, ${c.aclMode}, page ${c.pageSize})`);
    out.push(textTable(
      ['principal', 'visible docs', 'queries', 'results', 'prefixes', 'suggestions', 'violations', 'page fill', 'short/empty', `recall@${c.pageSize} (n)`,
        ...(post ? ['fill@candidates', 'fill possible', 'depth for 95%'] : [])],
      rows.map(([name, r]) => [
        name, String(r.visibleDocuments), String(r.queries), String(r.resultsChecked), String(r.prefixes), String(r.suggestionsChecked),
        r.violations ? `${r.violations} (${LEAK_PLACES.filter((p) => r.byPlace[p]).map((p) => `${p} ${r.byPlace[p]}`).join(', ')})` : '0',
        pct(r.pageFill), `${r.shortPages} / ${r.emptyPages}`,
        r.recall === null ? '-' : `${r.recall.toFixed(4)} (${r.recallQueries}${r.excludedQueries.length ? `, ${r.excludedQueries.length} left out` : ''})`,
        ...(post && r.postFilter ? [`${pct(r.postFilter.fillAtCandidates)} @${r.postFilter.candidates}`, pct(r.postFilter.fillPossible), String(r.postFilter.depthFor95 ?? 'never')] : []),
      ] as Cell[]),
    ));
  }
  if (report.violations.length) {
    out.push('', `${report.violations.length} violation(s):`);
    for (const v of report.violations.slice(0, 50)) out.push(`  ${v.config} as ${v.principal}, "${v.query}": ${v.where} ${v.docId || '(count)'}: ${v.detail}`);
    if (report.violations.length > 50) out.push(`  … and ${report.violations.length - 50} more (--format json lists all)`);
  } else {
    out.push('', `No violations: ${report.checked} responses checked.`);
  }
  if (findings.failures.length || findings.warnings.length) out.push('');
  for (const f of findings.failures) out.push(`FAILED: ${f}`);
  for (const w of findings.warnings) out.push(`warning: ${w}`);
  io.out(out.join('\n') + '\n');
  return code;
}
