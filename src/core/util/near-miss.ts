/**
 * Near misses of names that must be spelled exactly: where a misspelled key would silently mean "absent" (an
 * access field such as `tenant`), a key that looks like one is a mistake to report, not a field to ignore.
 *
 * A key is a near miss of a name when it is not that name but equals it ignoring case and the separators `_`,
 * `-` and spaces (`Tenant`, `tenant_`, `ACL-Groups` for `acl_groups`), or is within a small edit distance of it,
 * counting a swap of two neighbouring letters as one edit (optimal string alignment): 1 for names of 4 to 7
 * letters (`tennant`, `grups`, `gruops`, `group`), 2 for longer ones. Names under 4 letters only match the
 * first way: one edit away from a 3-letter name is too many ordinary words. `publish` is 2 edits from `public`
 * and is not flagged.
 */
export function nearMissOf(key: string, names: readonly string[], known: ReadonlySet<string>): string | undefined {
  if (known.has(key) || names.includes(key)) return undefined;
  const k = normalise(key);
  for (const name of names) {
    const n = normalise(name);
    if (k === n) return name;
    const limit = n.length >= 8 ? 2 : n.length >= 4 ? 1 : 0;
    if (limit > 0 && Math.abs(k.length - n.length) <= limit && osaDistance(k, n) <= limit) return name;
  }
  return undefined;
}

function normalise(s: string): string {
  return s.toLowerCase().replace(/[_\-\s]/g, '');
}

/** Edit distance with adjacent transpositions (optimal string alignment). */
function osaDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  // rows[i] for i ≤ a.length, each filled left to right up to b.length: every read below is a cell already set.
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The keys of a record (a front matter, a JSON record, a principal) that nearly spell one of `names`, each with
 * the name it resembles. A dotted name (`acl.tenant`) is also looked for inside the nested object it walks into,
 * so `{"acl": {"tennant": …}}` is found; `known` keys (mapped to something else) are never near misses.
 */
export function nearMissKeys(
  record: Record<string, unknown>,
  names: readonly string[],
  known: ReadonlySet<string>,
): { key: string; name: string }[] {
  const out: { key: string; name: string }[] = [];
  for (const key of Object.keys(record)) {
    const name = nearMissOf(key, names, known);
    if (name !== undefined) out.push({ key, name });
  }
  const nested = new Map<string, string[]>();
  for (const name of names) {
    const dot = name.indexOf('.');
    if (dot > 0 && !Object.prototype.hasOwnProperty.call(record, name))
      nested.set(name.slice(0, dot), [...(nested.get(name.slice(0, dot)) ?? []), name.slice(dot + 1)]);
  }
  for (const [head, rest] of nested) {
    const inner = record[head];
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) continue;
    const innerKnown = new Set([...known].filter((k) => k.startsWith(`${head}.`)).map((k) => k.slice(head.length + 1)));
    for (const hit of nearMissKeys(inner as Record<string, unknown>, rest, innerKnown))
      out.push({ key: `${head}.${hit.key}`, name: `${head}.${hit.name}` });
  }
  return out;
}
