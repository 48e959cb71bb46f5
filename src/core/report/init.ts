import type { WorkspacePlan, WriteResult } from '../workspace/init';

/** What `ranklab init` found and wrote, and what to run next, as the CLI prints it. */
export function formatInit(plan: WorkspacePlan, result: WriteResult, dir: string): string {
  const c = plan.corpus;
  const out: string[] = [`Workspace ${plan.root}`, '', 'Corpus:'];
  if (c.documents) out.push(`  ${c.documents} Markdown/text/HTML file${c.documents === 1 ? '' : 's'}`);
  for (const r of c.records) out.push(`  ${r.file}: records (${r.records} sampled)`);
  out.push(`  include: ${c.include.join(', ')}${c.exclude.length ? `; exclude: ${c.exclude.join(', ')}` : ''}`);
  out.push('Field mapping (corpus.fields):');
  const missing = {
    id: '(none found: each file is named by its path)',
    title: '(none found)',
    body: c.records.length ? '(none found)' : '(the text of each file)',
  };
  for (const key of ['id', 'title', 'body'] as const)
    out.push(`  ${key.padEnd(6)} <- ${c.fields[key] ? `"${c.fields[key]}"` : missing[key]}`);
  const acl = Object.entries(c.acl);
  out.push(
    `Access fields (acl.fields): ${acl.length ? acl.map(([k, v]) => `${k} <- "${v}"`).join(', ') : 'none found (every document is public)'}`,
  );
  out.push('Judgments:');
  if (plan.judgments.length === 0) out.push('  none found');
  for (const j of plan.judgments) out.push(`  ${j.kind}: ${j.files.join(' + ')}`);
  if (plan.warnings.length) out.push('', ...plan.warnings.map((w) => `warning: ${w}`));
  out.push('', 'Written:', ...(result.written.length ? result.written.map((f) => `  ${f}`) : ['  nothing']));
  if (result.skipped.length) out.push('Skipped:', ...result.skipped.map((s) => `  ${s.path}: ${s.reason}`));
  const quoted = /^[\w./-]+$/.test(dir) ? dir : JSON.stringify(dir);
  out.push(
    '',
    plan.judgments.length
      ? `Next: ranklab eval --workspace ${quoted}`
      : `Next: add labeled queries to "judgments" in ${quoted === '.' ? '' : `${quoted}/`}ranklab.json (the comment there shows how), then ranklab eval --workspace ${quoted}`,
  );
  return out.join('\n') + '\n';
}
