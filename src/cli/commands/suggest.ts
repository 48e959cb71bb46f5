import { InputError } from '../../core/util/diagnostics';
import { visibleText } from '../../core/util/visible-text';
import { formatChoice, intFlag, parse } from '../args';
import type { Io } from '../io';
import { WORKSPACE_OPTIONS, openForOneQuery } from '../workspace-options';

export const SUGGEST_USAGE = `ranklab suggest [--workspace DIR] [--config NAME|FILE] [--as PRINCIPAL] [--principals FILE]
                [--limit N] [--format table|json] [--strict] "prefix"
  Autocomplete: completes the last word of the prefix from the index terms of documents the principal
  may see (MiniSearch autoSuggest with the access predicate as its filter).`;

export async function suggestCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      ...WORKSPACE_OPTIONS,
      config: { type: 'string', short: 'c' },
      as: { type: 'string' },
      limit: { type: 'string' },
      format: { type: 'string', short: 'f' },
      help: { type: 'boolean', short: 'h' },
    },
    { positionals: 'prefix' },
  );
  if (values.help) return (io.out(SUGGEST_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const prefix = positionals.join(' ');
  if (!prefix.trim()) throw new InputError('a prefix is required: ranklab suggest "prefix"');
  const limit = intFlag(values.limit, '--limit', 1) ?? 10;
  const { session, config } = openForOneQuery(values, io);
  const suggestions = await session.suggest(config, prefix, { principal: values.as, limit });
  if (format === 'json') {
    io.out(
      JSON.stringify(
        { prefix, principal: values.as ?? null, suggestions: suggestions.map((s) => ({ suggestion: s.suggestion, score: s.score })) },
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  if (suggestions.length === 0) io.out(`no suggestions for "${prefix}"${values.as ? ` visible to ${values.as}` : ''}\n`);
  else io.out(suggestions.map((s) => `${visibleText(s.suggestion)}\t${s.score.toFixed(4)}`).join('\n') + '\n');
  return 0;
}
