import type { MetricDefinition } from './definition';
import { METRICS, metricUsage } from './registry';

export const METRIC_TABLE_BEGIN =
  '<!-- metrics:begin (generated from src/core/metrics/registry.ts by `npm run docs:metrics`; do not edit) -->';
export const METRIC_TABLE_END = '<!-- metrics:end -->';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function row(def: MetricDefinition): string {
  const names = [metricUsage(def)].concat(def.aliases.length ? [`aliases: ${def.aliases.join(', ')}`] : []);
  const param = def.param ? `${def.param.name}: ${def.param.description}` : 'none';
  return `| ${cell(
    names
      .map((n, i) =>
        i === 0
          ? n
              .split(', ')
              .map((x) => `\`${x}\``)
              .join(', ')
          : n,
      )
      .join('<br>'),
  )} | ${cell(def.description)} | ${cell(def.formula)} | ${cell(param)} | ${cell(def.reference)} | ${cell(def.ties)} |`;
}

/** The docs/metrics.md / docs/formats.md metric table, one row per registered metric. */
export function metricTableMarkdown(): string {
  return ['| name | what it measures | definition | parameter | reference | ties |', '|---|---|---|---|---|---|', ...METRICS.map(row)].join(
    '\n',
  );
}

/**
 * Replaces what stands between the metric-table markers of a document with the generated table. Returns
 * undefined when the markers are missing (the caller reports it; nothing is written).
 */
export function withMetricTable(text: string): string | undefined {
  const begin = text.indexOf(METRIC_TABLE_BEGIN);
  const end = text.indexOf(METRIC_TABLE_END);
  if (begin < 0 || end < begin) return undefined;
  return `${text.slice(0, begin + METRIC_TABLE_BEGIN.length)}\n${metricTableMarkdown()}\n${text.slice(end)}`;
}
