/** `ranklab explain` as text: each config's steps, the lexical sum term by term, the reason line. */
import type { ConfigExplanation, ExplainReport } from '../session/explain';
import { type Cell, formatNumber, textTable } from './table';
import { shortText } from '../util/visible-text';

export function formatExplanation(r: ExplainReport): string {
  const out: string[] = [];
  const q = r.query.qid ? `${r.query.qid} "${shortText(r.query.text)}"` : `"${shortText(r.query.text)}"`;
  out.push(
    `query ${q}; document ${r.doc.id}${r.doc.title ? ` "${shortText(r.doc.title)}"` : ''}${r.principal ? `; as ${r.principal}` : ''}`,
  );
  if (!r.visible) {
    out.push(`not visible to ${r.principal}`);
    return out.join('\n') + '\n';
  }
  if (r.reason) out.push(`reason: ${r.reason}`);
  for (const side of [r.candidate, r.baseline])
    if (side) out.push('', ...configLines(side, side === r.baseline ? 'baseline' : r.baseline ? 'candidate' : ''));
  return out.join('\n') + '\n';
}

function configLines(c: ConfigExplanation, role: string): string[] {
  const where =
    c.rank !== null
      ? `rank ${c.rank} of ${c.ranking.length}, score ${formatNumber(c.score!, 6)}`
      : `not ranked: fell out at ${c.fellOut?.step} (${c.fellOut?.note})`;
  const out = [`${role ? `${role} ` : ''}${c.config} (${c.mode}): ${where}`];
  for (const s of c.steps) {
    out.push(`  ${s.step}: ${s.note}`);
    if (s.lexical && s.lexical.parts.length) {
      const lx = s.lexical;
      const rows: Cell[][] = lx.parts.map((p) => [
        p.field,
        p.queryTerm,
        p.term === p.queryTerm ? p.match : `${p.match} ${p.term}`,
        formatNumber(p.weight, 3),
        String(p.tf),
        String(p.fieldLength),
        formatNumber(p.avgFieldLength, 2),
        `${p.df}/${p.docCount}`,
        formatNumber(p.idf),
        formatNumber(p.lengthNorm),
        formatNumber(p.bm25),
        String(p.boost),
        String(p.coordination),
        formatNumber(p.contribution, 6),
      ]);
      out.push(
        indent(
          textTable(
            ['field', 'term', 'match', 'weight', 'tf', 'len', 'avg len', 'df/N', 'idf', 'norm', 'bm25', 'boost', 'coord', 'contribution'],
            rows,
          ),
        ),
      );
      const bm = `k1 ${lx.bm25.k1}, b ${lx.bm25.b}, d ${lx.bm25.d}`;
      out.push(
        `    sum ${formatNumber(lx.sum, 6)} (${lx.combineWith}, ${bm}${lx.coordination !== null ? `, coordination ×${lx.coordination}` : ''}${lx.missingTerms.length ? `; not in it: ${lx.missingTerms.join(', ')}` : ''})`,
      );
    }
    if (s.vector) {
      const v = s.vector;
      // A document the step did not return has exact search's similarity, whatever searched (HNSW or exact).
      const by = s.rank !== null ? `by ${v.producedBy}` : `by exact search (not in the ${v.producedBy} list of depth ${v.depth})`;
      out.push(
        `    similarity ${v.similarity === null ? '-' : formatNumber(v.similarity, 6)} ${by}; exact search: rank ${v.exactRank ?? '-'}${v.differsFromExact ? ' (differs)' : ''}; depth ${v.depth}`,
      );
    }
    if (s.fusion) {
      const f = s.fusion;
      const parts = f.lists.map((l) =>
        l.rank === null
          ? `${l.name}: not in its top ${f.depth}`
          : `${l.name}: ${l.weight}/(${f.k}+${l.rank}) = ${formatNumber(l.contribution, 6)}`,
      );
      out.push(`    ${parts.join('; ')}; sum ${formatNumber(f.sum, 6)}`);
    }
    if (s.rerank) {
      const x = s.rerank;
      out.push(
        `    model score ${x.modelScore === null ? '-' : formatNumber(x.modelScore, 6)}; rank before ${x.rankBefore ?? '-'}, after ${x.rankAfter ?? '-'} (topN ${x.topN}, topM ${x.topM})`,
      );
    }
  }
  for (const n of c.notes) out.push(`  note: ${n}`);
  return out;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l ? `    ${l}` : l))
    .join('\n');
}
