import type { Document } from '../corpus/document';
import { loadCorpus, type CorpusSettings } from '../corpus';
import type { Analyzer } from '../retrieval/analyzer';
import { fieldText } from '../retrieval/ranking';
import { type AclPolicy, type Principal, hasAclFields, permittedIds } from './policy';
import { snippetSource, tagsOf } from './search-view';

/**
 * Who may see what, re-derived from the corpus files themselves (not from the index, its cached
 * documents or the session's permitted sets), so that the access checker catches a broken or stale
 * filter instead of agreeing with it.
 */
export class SourceTruth {
  readonly docs = new Map<string, Document>();
  private readonly visible = new Map<string, Set<string>>();
  private readonly termIndexes = new Map<string, Map<string, string[]>>();

  constructor(docs: readonly Document[], readonly policy: AclPolicy) {
    for (const d of docs) this.docs.set(d.id, d);
  }

  /** Reads every corpus file again, without the incremental snapshot. */
  static fromDisk(root: string, settings: CorpusSettings, policy: AclPolicy): SourceTruth {
    return new SourceTruth(loadCorpus(root, settings).corpus.docs, policy);
  }

  /** The ids this principal may see according to the source metadata. */
  visibleIds(principal: Principal): Set<string> {
    let set = this.visible.get(principal.name);
    if (!set) {
      set = permittedIds(this.policy, principal, [...this.docs.values()]);
      this.visible.set(principal.name, set);
    }
    return set;
  }

  /** False for a document that is not in the source corpus at all. */
  isVisible(principal: Principal, id: string): boolean {
    return this.visibleIds(principal).has(id);
  }

  /** Documents with none of the ACL fields (tenant, groups, public): they follow `missingAcl`. */
  withoutAcl(): number {
    let n = 0;
    for (const d of this.docs.values()) if (!hasAclFields(d)) n++;
    return n;
  }

  tags(id: string): string[] {
    const d = this.docs.get(id);
    return d ? tagsOf(d.meta) : [];
  }

  /** The document's text as snippets are cut from it (whitespace collapsed). */
  snippetText(id: string): string | undefined {
    const d = this.docs.get(id);
    return d ? snippetSource(d) : undefined;
  }

  /**
   * term -> ids of the documents containing it, built from the source text with the index's analyzer and
   * fields (an inverted index of our own, independent of MiniSearch), to trace where a suggestion came from.
   */
  termIndex(fields: string[], analyzer: Analyzer): Map<string, string[]> {
    const key = `${fields.join(',')}\u0000${analyzer.key}`;
    let index = this.termIndexes.get(key);
    if (!index) {
      index = new Map();
      for (const d of this.docs.values()) {
        const terms = new Set<string>();
        for (const f of fields) for (const t of analyzer.analyze(fieldText(d, f))) terms.add(t);
        for (const t of terms) {
          let ids = index.get(t);
          if (!ids) index.set(t, (ids = []));
          ids.push(d.id);
        }
      }
      this.termIndexes.set(key, index);
    }
    return index;
  }

  /** Ids of the source documents that contain every one of these terms. */
  docsWithTerms(terms: readonly string[], index: Map<string, string[]>): string[] {
    if (terms.length === 0) return [];
    const lists = terms.map((t) => index.get(t) ?? []).sort((a, b) => a.length - b.length);
    const rest = lists.slice(1).map((l) => new Set(l));
    return lists[0].filter((id) => rest.every((s) => s.has(id)));
  }
}
