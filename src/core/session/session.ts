import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { type AclPolicy, DEFAULT_ACL_RULE, type AclRule, type Principal, permittedIds } from '../acl/policy';
import { findPrincipal, readPrincipals } from '../acl/principals';
import { defaultRankConfig, normaliseRankConfig, parseRankConfig, type RankConfig } from '../config';
import { type Corpus, type CorpusSnapshot, diffCorpus, loadCorpus, parseSnapshot, serializeSnapshot } from '../corpus';
import { type ExcludedQuery, filterBySplit, judgmentsVisibleTo, loadJudgments, type JudgmentSet } from '../judgments';
import { type Engine, type SearchResult, type Suggestion, createEngine } from '../retrieval/pipeline';
import { type SearchView, buildSearchView, suggestFor } from '../acl/search-view';
import { createAnalyzer } from '../retrieval/analyzer';
import { type DocFilter, permittedFilter } from '../retrieval/doc-filter';
import { DEFAULT_ANALYZER } from '../config/defaults';
import type { Document } from '../corpus/document';
import { RerankScoreCache } from '../retrieval/rerank';
import { writeFileAtomic } from '../util/atomic-write';
import { fingerprint } from '../util/fingerprint';
import { type Diagnostic, InputError } from '../util/diagnostics';
import { type Workspace, configName, ensureRanklabDir, loadWorkspace } from '../workspace';

export interface SessionOptions {
  /** Untrusted workspaces get neither: HTTP providers and model loading are then refused with a clear error. */
  allowNetwork?: boolean;
  allowModelLoading?: boolean;
  /** Overrides the workspace's principals file (`--principals`). */
  principalsFile?: string;
  /** Write caches and runs (default true). */
  writeCache?: boolean;
  /**
   * Where caches and saved runs go (default: WORKSPACE/.ranklab, or a per-workspace folder under
   * ~/.cache/ranklab when the workspace folder is read-only, e.g. a shared data set). Env: RANKLAB_STATE_DIR.
   */
  stateDir?: string;
  log?: (message: string) => void;
}

export interface ConfigEntry {
  name: string;
  /** Absolute path of the .rank.json; undefined for a built-in default. */
  file?: string;
  config?: RankConfig;
  diagnostics: Diagnostic[];
}

/** What a principal may see, computed once per principal and corpus version. */
export interface AccessView {
  principal: Principal;
  permitted: Set<string>;
  /** Carries `permitted`, so exact vector search uses a cached row list instead of a call per document. */
  filter: DocFilter;
}

/**
 * A workspace opened for work: corpus, judgments, configs, principals and retrieval engines, loaded
 * lazily and kept warm. The CLI uses one per command; the extension keeps one per workspace folder
 * and calls `refreshCorpus()` when files change, so an edit re-indexes only what changed.
 */
export class RanklabSession {
  private corpusState?: { corpus: Corpus; snapshot: CorpusSnapshot };
  private judgmentSet?: JudgmentSet;
  private principalList?: Principal[];
  private readonly engines = new Map<string, Promise<Engine>>();
  private readonly rerankCache = new RerankScoreCache();
  private readonly accessViews = new Map<string, AccessView>();
  readonly diagnostics: Diagnostic[] = [];

  private constructor(readonly workspace: Workspace, readonly options: SessionOptions) {
    this.diagnostics.push(...workspace.diagnostics);
    const state = stateDirFor(workspace.root, options.stateDir ?? process.env.RANKLAB_STATE_DIR);
    workspace.cacheDir = join(state, 'cache');
    workspace.runsDir = join(state, 'runs');
  }

  static open(dir: string, options: SessionOptions = {}): RanklabSession {
    return new RanklabSession(loadWorkspace(dir), options);
  }

  get root(): string {
    return this.workspace.root;
  }

  private log(message: string): void {
    this.options.log?.(message);
  }

  private get writeCache(): boolean {
    return this.options.writeCache !== false;
  }

  // ---- corpus -------------------------------------------------------------------------------

  private snapshotPath(): string {
    return join(this.workspace.cacheDir, 'corpus-snapshot.json');
  }

  corpus(): Corpus {
    if (!this.corpusState) {
      let previous: CorpusSnapshot | undefined;
      if (existsSync(this.snapshotPath())) {
        try {
          previous = parseSnapshot(readFileSync(this.snapshotPath(), 'utf8'));
        } catch {
          previous = undefined;
        }
      }
      const t0 = performance.now();
      const r = loadCorpus(this.root, this.workspace.settings.corpus, previous);
      this.log(`corpus: ${r.corpus.docs.length} documents from ${r.files.length} files (${r.reread.length} read, rest from cache) in ${(performance.now() - t0).toFixed(0)} ms`);
      this.corpusState = { corpus: r.corpus, snapshot: r.snapshot };
      this.saveSnapshot();
    }
    return this.corpusState.corpus;
  }

  private saveSnapshot(): void {
    if (!this.writeCache || !this.corpusState) return;
    try {
      ensureRanklabDir(this.workspace);
      writeFileAtomic(this.snapshotPath(), serializeSnapshot(this.corpusState.snapshot));
    } catch (e) {
      this.log(`corpus snapshot not written: ${(e as Error).message}`);
    }
  }

  /**
   * Re-reads changed corpus files and applies the difference to every open engine (no full re-index).
   * Returns what changed.
   */
  async refreshCorpus(): Promise<{ added: string[]; changed: string[]; removed: string[]; ms: number }> {
    const t0 = performance.now();
    if (!this.corpusState) {
      this.corpus();
      return { added: [], changed: [], removed: [], ms: performance.now() - t0 };
    }
    const before = this.corpusState.corpus;
    const r = loadCorpus(this.root, this.workspace.settings.corpus, this.corpusState.snapshot);
    const diff = diffCorpus(before.docs, r.corpus.docs);
    this.corpusState = { corpus: r.corpus, snapshot: r.snapshot };
    this.accessViews.clear();
    if (diff.added.length || diff.changed.length || diff.removed.length) {
      const upsert = [...diff.added, ...diff.changed];
      for (const [key, pending] of this.engines) {
        const engine = await pending;
        await engine.update({ upsert, delete: diff.removed, docs: r.corpus.docs, corpusFingerprint: r.corpus.fingerprint });
        this.engines.set(key, Promise.resolve(engine));
      }
      this.saveSnapshot();
    }
    return { added: diff.added.map((d) => d.id), changed: diff.changed.map((d) => d.id), removed: diff.removed, ms: performance.now() - t0 };
  }

  // ---- judgments, configs, principals -------------------------------------------------------

  judgments(): JudgmentSet {
    if (!this.judgmentSet) {
      if (this.workspace.judgmentSpecs.length === 0) throw new InputError(`${this.root}: no judgments configured (ranklab.json "judgments")`);
      const { merge, llmGrades } = this.workspace.settings.judging;
      this.judgmentSet = loadJudgments(this.workspace.judgmentSpecs, { baseDir: this.root, merge: { merge, llmGrades } });
    }
    return this.judgmentSet;
  }

  reloadJudgments(): JudgmentSet {
    this.judgmentSet = undefined;
    return this.judgments();
  }

  configEntries(): ConfigEntry[] {
    if (this.workspace.configFiles.length) {
      return this.workspace.configFiles.map((file) => {
        const parsed = parseRankConfig(file);
        return { name: configName(file), file, config: parsed.config, diagnostics: parsed.diagnostics };
      });
    }
    if (this.workspace.builtinConfigs.length) {
      return this.workspace.builtinConfigs.map((b) => ({ name: b.name, config: normaliseRankConfig(b.config, b.name), diagnostics: [] }));
    }
    const d = defaultRankConfig();
    return [{ name: d.name, config: d, diagnostics: [] }];
  }

  /** A config by name (`title-boost-3`), by path (`configs/x.rank.json`), or the workspace's default. */
  resolveConfig(nameOrPath?: string): RankConfig {
    const entries = this.configEntries();
    if (!nameOrPath) {
      const base = this.workspace.baselineName;
      const entry = (base && entries.find((e) => e.name === base)) || entries[0];
      return this.usable(entry);
    }
    const asPath = isAbsolute(nameOrPath) ? nameOrPath : resolve(this.root, nameOrPath);
    const byName = entries.find((e) => e.name === nameOrPath || e.file === asPath);
    if (byName) return this.usable(byName);
    const cwdPath = resolve(nameOrPath);
    for (const p of [cwdPath, asPath]) {
      if (existsSync(p)) {
        const parsed = parseRankConfig(p);
        return this.usable({ name: configName(p), file: p, config: parsed.config, diagnostics: parsed.diagnostics });
      }
    }
    throw new InputError(`unknown config "${nameOrPath}" (workspace configs: ${entries.map((e) => e.name).join(', ')})`);
  }

  private usable(entry: ConfigEntry): RankConfig {
    if (!entry.config) throw new InputError(`config ${entry.file ?? entry.name} is not usable`, entry.diagnostics);
    return entry.config;
  }

  baselineConfig(): RankConfig {
    return this.resolveConfig(this.workspace.baselineName);
  }

  principals(): Principal[] {
    if (!this.principalList) {
      const file = this.principalsFile();
      if (!file) throw new InputError(`${this.root}: no principals file (add "acl": {"principals": "principals.json"} to ranklab.json or pass --principals)`);
      const r = readPrincipals(file);
      this.diagnostics.push(...r.diagnostics);
      this.principalList = r.principals;
    }
    return this.principalList;
  }

  principalsFile(): string | undefined {
    if (this.options.principalsFile) return resolve(this.options.principalsFile);
    if (this.workspace.principalsFile) return this.workspace.principalsFile;
    const fallback = join(this.root, 'principals.json');
    return existsSync(fallback) ? fallback : undefined;
  }

  policy(): AclPolicy {
    const acl = this.workspace.settings.acl as { rule?: AclRule; missingAcl: 'public' | 'private' };
    return { rule: acl.rule ?? DEFAULT_ACL_RULE, missingAcl: acl.missingAcl };
  }

  /** The documents a principal may see, as a set and as the predicate every retrieval stage takes. */
  accessFor(name: string): AccessView {
    let view = this.accessViews.get(name);
    if (!view) {
      const principal = findPrincipal(this.principals(), name, this.principalsFile() ?? 'principals.json');
      const permitted = permittedIds(this.policy(), principal, this.corpus().docs);
      view = { principal, permitted, filter: permittedFilter(permitted) };
      this.accessViews.set(name, view);
    }
    return view;
  }

  /** Judgments for one split as a principal scores them; see `judgmentsAs`. */
  judgmentsFor(opts: { split?: 'tune' | 'holdout' | 'all'; principal?: string; relevanceThreshold?: number }): JudgmentSet {
    return this.judgmentsAs(opts).judgments;
  }

  /**
   * Judgments for one split as seen by a principal (`judgmentsVisibleTo`): documents they may not see are not
   * misses, and queries whose relevant documents are all invisible are left out and returned in `excluded`.
   * The threshold defaults to the workspace's `relevanceThreshold`.
   */
  judgmentsAs(opts: { split?: 'tune' | 'holdout' | 'all'; principal?: string; relevanceThreshold?: number }): { judgments: JudgmentSet; excluded: ExcludedQuery[] } {
    let set = this.judgments();
    if (opts.split && opts.split !== 'all') set = filterBySplit(set, opts.split);
    if (!opts.principal) return { judgments: set, excluded: [] };
    const { filter } = this.accessFor(opts.principal);
    const relevanceThreshold = opts.relevanceThreshold ?? this.workspace.settings.relevanceThreshold;
    return judgmentsVisibleTo(set, filter, { principal: opts.principal, relevanceThreshold });
  }

  // ---- engines and search -------------------------------------------------------------------

  engine(config: RankConfig): Promise<Engine> {
    let pending = this.engines.get(config.configHash);
    if (!pending) {
      const corpus = this.corpus();
      if (this.writeCache) ensureRanklabDir(this.workspace);
      pending = createEngine({
        docs: corpus.docs,
        corpusFingerprint: corpus.fingerprint,
        config,
        cacheDir: this.writeCache ? this.workspace.cacheDir : undefined,
        rerankCache: this.rerankCache,
        providers: {
          baseDir: this.root,
          cacheDir: this.writeCache ? join(this.workspace.cacheDir, 'embeddings') : undefined,
          allowNetwork: this.options.allowNetwork ?? true,
          allowModelLoading: this.options.allowModelLoading ?? true,
        },
      });
      pending.then((e) => this.log(`engine ${config.name}: ${describeBuild(e)}`), () => this.engines.delete(config.configHash));
      this.engines.set(config.configHash, pending);
    }
    return pending;
  }

  /** Drops every engine (the next use rebuilds or reloads indexes from the cache). */
  dropEngines(): void {
    this.engines.clear();
  }

  /**
   * Deletes the cached indexes (lexical, vector, LSA) and the corpus snapshot, and drops every open engine and the
   * loaded corpus: the next use re-reads the corpus files and builds every index from scratch ("Rebuild Index").
   * Cached embeddings stay: they depend on the model and the text, not on an index. Returns the entries deleted.
   */
  clearIndexCaches(): string[] {
    this.dropEngines();
    this.corpusState = undefined;
    this.accessViews.clear();
    const dir = this.workspace.cacheDir;
    if (!existsSync(dir)) return [];
    const removed: string[] = [];
    for (const name of readdirSync(dir)) {
      if (KEPT_CACHES.has(name)) continue;
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(name);
    }
    return removed.sort();
  }

  async search(config: RankConfig, text: string, opts: { principal?: string; pageSize?: number; signal?: AbortSignal } = {}): Promise<SearchResult> {
    const engine = await this.engine(config);
    const access = opts.principal ? this.accessFor(opts.principal) : undefined;
    return engine.search(text, { filter: access?.filter, pageSize: opts.pageSize ?? config.pageSize, signal: opts.signal });
  }

  // ---- what a user sees: everything filtered by the principal's access (see src/core/acl) ------

  private docIndex?: { corpus: Corpus; byId: Map<string, Document> };

  /** A document of the current corpus by id. */
  document(id: string): Document | undefined {
    const corpus = this.corpus();
    if (this.docIndex?.corpus !== corpus) this.docIndex = { corpus, byId: new Map(corpus.docs.map((d) => [d.id, d])) };
    return this.docIndex.byId.get(id);
  }

  /**
   * One page as a user sees it: results with per-stage ranks/scores, titles and snippets, the hit count and
   * tag facets, all from documents the principal may see (the predicate is applied inside retrieval).
   */
  async searchView(config: RankConfig, text: string, opts: { principal?: string; pageSize?: number; snippetChars?: number; signal?: AbortSignal } = {}): Promise<SearchView> {
    const engine = await this.engine(config);
    const access = opts.principal ? this.accessFor(opts.principal) : undefined;
    return buildSearchView(engine, text, {
      filter: access?.filter,
      pageSize: opts.pageSize ?? config.pageSize,
      docs: (id) => this.document(id),
      analyzer: createAnalyzer(config.lexical?.analyzer ?? DEFAULT_ANALYZER),
      snippetChars: opts.snippetChars,
      signal: opts.signal,
    });
  }

  /**
   * Autocomplete for a prefix, built only from documents the principal may see. Uses the config's lexical
   * index; a config without one falls back to the built-in BM25 config's index.
   */
  async suggest(config: RankConfig | undefined, prefix: string, opts: { principal?: string; limit?: number } = {}): Promise<Suggestion[]> {
    const usable = config?.lexical ? config : defaultRankConfig();
    const engine = await this.engine(usable);
    const access = opts.principal ? this.accessFor(opts.principal) : undefined;
    return suggestFor(engine, prefix, { filter: access?.filter, limit: opts.limit });
  }
}

/** The workspace's own .ranklab folder, unless it is read-only (no write bit for anyone) or a folder was given. */
function stateDirFor(root: string, explicit: string | undefined): string {
  if (explicit) return resolve(explicit);
  const own = join(root, '.ranklab');
  let writable = true;
  try {
    // Mode bits, not access(2): as root every folder is writable, yet a read-only data set must stay untouched.
    writable = (statSync(root).mode & 0o222) !== 0;
  } catch {
    writable = false;
  }
  if (writable) return own;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'ranklab', `${basename(root)}-${fingerprint([root]).slice(7, 19)}`);
}

/** Cache entries that survive `clearIndexCaches()` (see there). */
const KEPT_CACHES = new Set(['embeddings']);

function describeBuild(e: Engine): string {
  const parts: string[] = [];
  if (e.build.lexical) parts.push(`lexical ${e.build.lexical.source} in ${e.build.lexical.ms.toFixed(0)} ms`);
  if (e.build.vector) parts.push(`vector ${e.build.vector.source} in ${e.build.vector.ms.toFixed(0)} ms (embedding ${e.build.vector.embedMs.toFixed(0)} ms, ${e.build.vector.embedderId}; exact scan: ${e.build.vector.scan === 'simd' ? 'WebAssembly SIMD' : 'JS'})`);
  return parts.join('; ') + (e.build.notes.length ? `; ${e.build.notes.join('; ')}` : '');
}
