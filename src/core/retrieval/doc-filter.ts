/**
 * An access filter: may the current principal see this document? When the filter is made from a set of
 * permitted ids (`permittedFilter`), it carries that set, so an index can turn it into its own row list
 * once and reuse it for every query instead of calling the function per document (exact.ts does).
 */
export type DocFilter = ((docId: string) => boolean) & {
  /** Exactly the ids the function accepts. Must not change after the filter is made (indexes cache by it). */
  readonly permitted?: ReadonlySet<string>;
};

export function permittedFilter(permitted: ReadonlySet<string>): DocFilter {
  return Object.assign((id: string) => permitted.has(id), { permitted });
}
