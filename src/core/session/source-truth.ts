import type { Document } from '../corpus/document';
import { loadCorpus, loadCorpusSliced, type CorpusSettings } from '../corpus';
import type { Slicer } from '../util/cooperative';
import type { Analyzer } from '../retrieval/analyzer';
import { fieldText } from '../retrieval/ranking';
import type { Principal } from '../acl/policy';
import type { ReferenceAcl } from '../acl/reference-acl';
import { snippetSource, tagsOf } from './search-view';

/** Whether a principal may see a document, as the verifier decides it. */
export type AccessOracle = (principal: Principal, id: string) => boolean;

/**
 * What the corpus files say now (not the index, its cached documents or the session's permitted sets), so
 * that the access checker catches a broken or stale filter instead of agreeing with it: the documents' text,
 * tags and snippets as the corpus readers produce them from a fresh read, and visibility from an independent
 * oracle (in check-acl, `ReferenceAcl`, which parses the files and evaluates the rule with its own code).
 */
export class SourceTruth {
  readonly docs = new Map<string, Document>();
  private readonly visible = new Map<string, Set<string>>();
  private readonly termIndexes = new Map<string, Map<string, string[]>>();

  constructor(
    docs: readonly Document[],
    private readonly access: AccessOracle,
  ) {
    for (const d of docs) this.docs.set(d.id, d);
  }

  /** Reads every corpus file again, without the incremental snapshot; visibility comes from `reference`. */
  static fromDisk(root: string, settings: CorpusSettings, reference: ReferenceAcl): SourceTruth {
    return new SourceTruth(loadCorpus(root, settings).corpus.docs, (p, id) => reference.visible(p, id));
  }

  /** `fromDisk` pausing between files (see util/cooperative); stops with the slicer's abort reason. */
  static async fromDiskSliced(root: string, settings: CorpusSettings, reference: ReferenceAcl, slicer: Slicer): Promise<SourceTruth> {
    return new SourceTruth((await loadCorpusSliced(root, settings, slicer)).corpus.docs, (p, id) => reference.visible(p, id));
  }

  /** The ids of the source documents this principal may see. */
  visibleIds(principal: Principal): Set<string> {
    let set = this.visible.get(principal.name);
    if (!set) {
      set = new Set([...this.docs.keys()].filter((id) => this.access(principal, id)));
      this.visible.set(principal.name, set);
    }
    return set;
  }

  /** False for a document that is not in the source corpus at all. */
  isVisible(principal: Principal, id: string): boolean {
    return this.visibleIds(principal).has(id);
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
    return (lists[0] ?? []).filter((id) => rest.every((s) => s.has(id)));
  }
}
