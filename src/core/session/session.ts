import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { type AclPolicy, DEFAULT_ACL_RULE, type AclRule, type Principal, permittedIds, rulePrincipalAttributes } from '../acl/policy';
import { type SkippedPrincipal, findPrincipal, readPrincipals } from '../acl/principals';
import { accessSettingsProblems, missingAclSummary } from './access-settings';
import { defaultRankConfig, normaliseRankConfig, parseRankConfig, type RankConfig } from '../config';
import {
  type Corpus,
  type CorpusSnapshot,
  type LoadCorpusResult,
  diffCorpus,
  listCorpusFiles,
  loadCorpus,
  loadCorpusSliced,
  readSnapshotFile,
  sameSnapshot,
  writeSnapshotFile,
} from '../corpus';
import {
  type ExcludedQuery,
  checkDocIds,
  filterBySplit,
  judgmentsVisibleTo,
  loadJudgments,
  type JudgmentSet,
  type JudgmentSpec,
} from '../judgments';
import { createEngine } from '../retrieval/engine';
import type { Engine, SearchResult, Suggestion } from '../retrieval/pipeline';
import { RemoteEngine } from '../engines/remote-engine';
import { type SearchView, buildSearchView, suggestFor } from './search-view';
import { configAnalyzer } from '../retrieval/analyzer';
import { type DocFilter, permittedFilter } from '../retrieval/doc-filter';
import type { Document } from '../corpus/document';
import { RerankScoreCache } from '../retrieval/rerank';
import { SharedParts } from '../retrieval/shared-parts';
import { closest } from '../util/closest';
import { Work, type WorkProgress, abortable } from '../util/cooperative';
import { fingerprint } from '../util/fingerprint';
import { type Diagnostic, InputError } from '../util/diagnostics';
import { type JsonLocations, lineOfPointer } from '../util/json-source';
import {
  type Workspace,
  SETTINGS_FILE,
  configName,
  displayPath,
  ensureRanklabDir,
  loadWorkspace,
  settingsLine,
  stateDirProblem,
} from '../workspace';
import { configFieldProblems } from './config-check';

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
  /** Problems worth a look that stop nothing (a cache that could not be written); default: `log`. */
  warn?: (message: string) => void;
  /** Progress of long phases (corpus loading, index builds, query loops) of every call on this session. */
  onProgress?: (progress: WorkProgress) => void;
}

export interface ConfigEntry {
  name: string;
  /** Absolute path of the .rank.json; undefined for a built-in default. */
  file?: string;
  config?: RankConfig;
  diagnostics: Diagnostic[];
  /** Where each setting of the file is (for problems found against the corpus). */
  locations?: JsonLocations;
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
  /** By config hash. `signal`: the cancellation of the caller whose build is still running. */
  private readonly engines = new Map<string, { pending: Promise<Engine>; signal?: AbortSignal }>();
  private readonly rerankCache = new RerankScoreCache();
  /** One index (and its per-query caches) per index-shaping setting, shared by the engines of every config. */
  private readonly sharedParts = new SharedParts();
  private readonly accessViews = new Map<string, AccessView>();
  private principalProblems: Diagnostic[] = [];
  private principalSkips: SkippedPrincipal[] = [];
  private principalLines = new Map<string, number>();
  private principalAttributes = new Set<string>();
  /** The entry each config handed out came from (file and setting locations), for configCorpusDiagnostics. */
  private readonly entryOf = new WeakMap<RankConfig, ConfigEntry>();
  /** Problems of ranklab.json (see also corpusDiagnostics, judgmentDiagnostics, principalDiagnostics). */
  readonly diagnostics: Diagnostic[] = [];

  private constructor(
    readonly workspace: Workspace,
    readonly options: SessionOptions,
  ) {
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

  /** A path as messages show it: relative to the workspace when inside it, else as it is. */
  relativePath(path: string): string {
    const rel = relative(this.root, resolve(this.root, path));
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : path;
  }

  /** Throws an InputError naming the path when the state folder (caches, runs) cannot be used as one. */
  checkStateDir(key?: string): void {
    if (!this.writeCache) return;
    const problem = stateDirProblem(this.workspace);
    if (problem)
      throw new InputError(problem.message, [], {
        file: this.relativePath(problem.path),
        key,
        hint: key ? undefined : 'remove or rename it, or pass --state-dir',
      });
  }

  private log(message: string): void {
    this.options.log?.(message);
  }

  private warn(message: string): void {
    (this.options.warn ?? this.options.log)?.(message);
  }

  private get writeCache(): boolean {
    return this.options.writeCache !== false;
  }

  /** Cancellable work on this session: stops when `signal` aborts, reports to the session's onProgress and to `onProgress`. */
  work(signal?: AbortSignal, onProgress?: (progress: WorkProgress) => void): Work {
    const own = this.options.onProgress;
    const both = own && onProgress ? (p: WorkProgress) => (own(p), onProgress(p)) : (own ?? onProgress);
    return new Work({ signal, onProgress: both });
  }

  // ---- corpus -------------------------------------------------------------------------------

  /** The corpus as a message names it: the workspace folder and the files it takes. */
  private corpusName(): string {
    return `the corpus of ${this.root} (${JSON.stringify(this.workspace.settings.corpus.include)})`;
  }

  private snapshotPath(): string {
    return join(this.workspace.cacheDir, 'corpus-snapshot.json');
  }

  corpus(): Corpus {
    if (!this.corpusState) {
      const t0 = performance.now();
      const previous = this.previousSnapshot();
      this.keepCorpus(loadCorpus(this.root, this.workspace.settings.corpus, previous), t0, previous);
    }
    return this.corpusState!.corpus;
  }

  /** The corpus, read with pauses between files so that a long first load can be cancelled (nothing is kept then). */
  async loadCorpus(work: Work = Work.none): Promise<Corpus> {
    if (!this.corpusState) {
      const t0 = performance.now();
      const previous = this.previousSnapshot();
      const r = await loadCorpusSliced(this.root, this.workspace.settings.corpus, work.phase('corpus', 0), previous);
      if (!this.corpusState) this.keepCorpus(r, t0, previous); // else corpus() loaded it meanwhile
    }
    return this.corpusState!.corpus;
  }

  private previousSnapshot(): CorpusSnapshot | undefined {
    if (!existsSync(this.snapshotPath())) return undefined;
    try {
      return readSnapshotFile(this.snapshotPath(), (m) => this.log(m));
    } catch {
      return undefined;
    }
  }

  private keepCorpus(r: LoadCorpusResult, t0: number, previous: CorpusSnapshot | undefined): void {
    this.log(
      `corpus: ${r.corpus.docs.length} documents from ${r.files.length} files (${r.reread.length} read, rest from cache) in ${(performance.now() - t0).toFixed(0)} ms`,
    );
    this.corpusState = { corpus: this.withSettingsProblems(r.corpus, r.files.length), snapshot: r.snapshot };
    // Written only when it changed: at 1M documents rewriting an unchanged 1.2 GB snapshot was 9 s of a 28 s warm start.
    if (!sameSnapshot(previous, r.snapshot)) this.saveSnapshot();
  }

  /**
   * Corpus problems that only ranklab.json can explain, at its lines: globs that match no file, files that gave
   * no document, field mappings that no record has (those would silently fall back to the defaults).
   */
  private withSettingsProblems(corpus: Corpus, files: number): Corpus {
    const ws = this.workspace;
    const file = ws.settingsFile ? SETTINGS_FILE : 'corpus.jsonl';
    const at = (pointer: string, severity: Diagnostic['severity'], key: string, message: string): Diagnostic => ({
      file,
      line: settingsLine(ws, pointer),
      severity,
      key,
      message,
    });
    const settings = ws.settings.corpus;
    const extra: Diagnostic[] = [];
    const diagnostics = corpus.diagnostics.filter((d) => !(d.file === '.' && /^no corpus files match/.test(d.message)));
    if (files === 0) {
      extra.push(
        at(
          '/corpus/include',
          'error',
          'corpus.include',
          `${JSON.stringify(settings.include)} matches no file${settings.exclude.length ? ` (after excluding ${JSON.stringify(settings.exclude)})` : ''}`,
        ),
      );
    } else if (corpus.docs.length === 0) {
      extra.push(
        at(
          '/corpus/include',
          'error',
          'corpus.include',
          `no document could be read from the ${files} matching file(s) (see the problems of each file)`,
        ),
      );
    } else {
      const seen = new Set(corpus.fieldsSeen ?? []);
      const mapped: Array<[string, string | undefined]> = [
        ['id', settings.fields.id],
        ['title', settings.fields.title],
        ['body', settings.fields.body],
        ...settings.fields.text.map((t, i): [string, string] => [`text/${i}`, t]),
      ];
      for (const [key, name] of mapped) {
        if (name === undefined || seen.has(name)) continue;
        extra.push(
          at(
            `/corpus/fields/${key}`,
            'warning',
            displayPath(`/corpus/fields/${key}`),
            `no record or front matter of the corpus has a field "${name}"`,
          ),
        );
      }
    }
    return extra.length || diagnostics.length !== corpus.diagnostics.length
      ? { ...corpus, diagnostics: [...extra, ...diagnostics] }
      : corpus;
  }

  /** Every problem of the corpus: per file and line, and those of the corpus settings in ranklab.json. */
  corpusDiagnostics(): Diagnostic[] {
    return this.corpus().diagnostics;
  }

  private saveSnapshot(): void {
    if (!this.writeCache || !this.corpusState) return;
    try {
      ensureRanklabDir(this.workspace);
      writeSnapshotFile(this.snapshotPath(), this.corpusState.snapshot);
    } catch (e) {
      this.warn(`corpus snapshot not written (${(e as Error).message}): the next start reads every corpus file again`);
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
    this.corpusState = { corpus: this.withSettingsProblems(r.corpus, r.files.length), snapshot: r.snapshot };
    this.accessViews.clear();
    if (diff.added.length || diff.changed.length || diff.removed.length) {
      const upsert = [...diff.added, ...diff.changed];
      for (const [key, { pending }] of this.engines) {
        const engine = await pending;
        await engine.update({ upsert, delete: diff.removed, docs: r.corpus.docs, corpusFingerprint: r.corpus.fingerprint });
        this.engines.set(key, { pending: Promise.resolve(engine) });
      }
      this.saveSnapshot();
    }
    return {
      added: diff.added.map((d) => d.id),
      changed: diff.changed.map((d) => d.id),
      removed: diff.removed,
      ms: performance.now() - t0,
    };
  }

  // ---- judgments, configs, principals -------------------------------------------------------

  judgments(): JudgmentSet {
    if (!this.judgmentSet) {
      if (this.workspace.judgmentSpecs.length === 0) {
        throw new InputError('no judgments configured', [], {
          file: this.workspace.settingsFile ? SETTINGS_FILE : this.root,
          key: 'judgments',
          hint: 'add labeled queries to ranklab.json, e.g. "judgments": ["judgments/golden.json"] holding [{"query": "…", "judgments": {"<doc id>": 2}}], or TREC qrels with their queries: [{"qrels": "qrels.txt", "queries": "queries.tsv"}]',
        });
      }
      // Paths inside the workspace are read (and reported) relative to it.
      const specs = this.workspace.judgmentSpecs.map((spec) => mapSpec(spec, (p) => this.relativePath(p)));
      const { merge, llmGrades } = this.workspace.settings.judging;
      this.judgmentSet = loadJudgments(specs, { baseDir: this.root, merge: { merge, llmGrades } });
    }
    return this.judgmentSet;
  }

  /** Every problem of the judgments: the readers' (bad lines, duplicates, typo'd keys) and judged documents not in the corpus. */
  judgmentDiagnostics(): Diagnostic[] {
    const set = this.judgments();
    return [...set.diagnostics.filter((d) => d.severity !== 'info'), ...checkDocIds(set, judgedIdsIn(set, this.corpus()))];
  }

  reloadJudgments(): JudgmentSet {
    this.judgmentSet = undefined;
    return this.judgments();
  }

  configEntries(): ConfigEntry[] {
    if (this.workspace.configFiles.length) {
      return this.workspace.configFiles.map((file) => this.entry(file));
    }
    if (this.workspace.builtinConfigs.length) {
      return this.workspace.builtinConfigs.map((b) => ({ name: b.name, config: normaliseRankConfig(b.config, b.name), diagnostics: [] }));
    }
    const d = defaultRankConfig();
    return [{ name: d.name, config: d, diagnostics: [] }];
  }

  /** A usable config by name (`title-boost-3`), by path (`configs/x.rank.json`), or the workspace's default. */
  resolveConfig(nameOrPath?: string): RankConfig {
    return this.usable(this.configEntry(nameOrPath));
  }

  /**
   * The entry of a config by name or path (usable or not: see `diagnostics`), or the workspace's default.
   * Throws an InputError for a name that is neither a config of the workspace nor a file.
   */
  configEntry(nameOrPath?: string): ConfigEntry {
    const entries = this.configEntries();
    if (!nameOrPath) {
      const base = this.workspace.baselineName;
      return (base && entries.find((e) => e.name === base)) || entries[0]!; // configEntries() is never empty (a default when none)
    }
    const asPath = isAbsolute(nameOrPath) ? nameOrPath : resolve(this.root, nameOrPath);
    const byName = entries.find((e) => e.name === nameOrPath || e.file === asPath);
    if (byName) return byName;
    const cwdPath = resolve(nameOrPath);
    for (const p of [cwdPath, asPath]) {
      if (existsSync(p)) return this.entry(p);
    }
    const near = closest(
      nameOrPath,
      entries.map((e) => e.name),
    );
    throw new InputError(`unknown config "${nameOrPath}"`, [], {
      file: nameOrPath,
      hint: `${near ? `did you mean "${near}"? ` : ''}workspace configs: ${entries.map((e) => e.name).join(', ') || 'none'}`,
    });
  }

  /**
   * Absolute paths of every file the workspace reads: ranklab.json, configs, judgments, corpus files,
   * principals. Outputs must never overwrite one of them.
   */
  inputFiles(): string[] {
    const ws = this.workspace;
    const out = [...ws.configFiles];
    if (ws.settingsFile) out.push(ws.settingsFile);
    for (const spec of ws.judgmentSpecs) {
      for (const k of ['qrels', 'queries', 'golden'] as const) if (spec[k]) out.push(spec[k]!);
      if (spec.beir) out.push(...['corpus.jsonl', 'queries.jsonl', 'qrels.tsv'].map((f) => join(spec.beir!, f)), ...beirQrels(spec.beir));
    }
    out.push(...listCorpusFiles(this.root, ws.settings.corpus).map((f) => join(this.root, f)));
    const principals = this.principalsFile();
    if (principals) out.push(principals);
    return out;
  }

  private entry(file: string): ConfigEntry {
    const parsed = parseRankConfig(file, this.relativePath(file));
    const entry: ConfigEntry = { name: configName(file), file, config: parsed.config, diagnostics: parsed.diagnostics };
    if (parsed.locations) entry.locations = parsed.locations;
    return entry;
  }

  /** Throws an InputError carrying the config's problems (file and line) when it cannot be used. */
  usable(entry: ConfigEntry): RankConfig {
    if (!entry.config) {
      const first = entry.diagnostics.find((d) => d.severity === 'error');
      const file = entry.file ? this.relativePath(entry.file) : entry.name;
      throw new InputError(first ? first.message : 'not a usable config', entry.diagnostics, { file, line: first?.line, key: first?.key });
    }
    this.entryOf.set(entry.config, entry);
    return entry.config;
  }

  /**
   * What only the corpus can tell about a config handed out by this session (its file's own problems are in its
   * ConfigEntry): a searched field that no document has text in, at the line of that field. An error means the
   * config would find nothing at all.
   */
  configCorpusDiagnostics(config: RankConfig): Diagnostic[] {
    const entry = this.entryOf.get(config);
    const file = entry?.file ? this.relativePath(entry.file) : config.name;
    const lineOf = (pointer: string) => (entry?.locations ? lineOfPointer(entry.locations, pointer) : 0);
    return configFieldProblems(config, this.corpus().docs).map((p) => {
      const d: Diagnostic = { file, line: lineOf(p.pointer), severity: p.severity, key: p.key, message: p.message };
      if (p.hint) d.hint = p.hint;
      return d;
    });
  }

  baselineConfig(): RankConfig {
    return this.resolveConfig(this.workspace.baselineName);
  }

  principals(): Principal[] {
    if (!this.principalList) {
      const file = this.principalsFile();
      if (!file) {
        throw new InputError('no principals file', [], {
          file: this.workspace.settingsFile ? SETTINGS_FILE : this.root,
          key: 'acl.principals',
          hint: 'add "acl": {"principals": "principals.json"} to ranklab.json or pass --principals',
        });
      }
      const r = readPrincipals(file, this.relativePath(file), ['tenant', 'groups', ...rulePrincipalAttributes(this.policy().rule)]);
      this.principalProblems = r.diagnostics;
      this.principalSkips = r.skipped;
      this.principalLines = r.lines;
      this.principalAttributes = r.attributes;
      this.principalList = r.principals;
    }
    return this.principalList;
  }

  /** Problems of the principals file (bad entries were skipped); empty until principals() has read it. */
  principalDiagnostics(): Diagnostic[] {
    return this.principalProblems;
  }

  /** Entries of the principals file that were skipped for an error: never checked, so no access check passes. */
  skippedPrincipals(): SkippedPrincipal[] {
    return this.principalSkips;
  }

  /**
   * Problems of the access settings that only the corpus and the principals (once loaded) can reveal, at their
   * lines of ranklab.json: errors when a mapping or a rule matches nothing (access is then refused: see
   * accessFor), warnings for group and tenant names used on one side only. See session/access-settings.ts.
   */
  accessDiagnostics(): Diagnostic[] {
    const ws = this.workspace;
    const corpus = this.corpus();
    const file = ws.settingsFile ? SETTINGS_FILE : this.root;
    const principalsFile = this.principalsFile();
    return accessSettingsProblems({
      settings: ws.settings,
      fieldsSeen: new Set(corpus.fieldsSeen ?? []),
      docs: corpus.docs,
      ...(this.principalList && principalsFile
        ? {
            principals: {
              list: this.principalList,
              lines: this.principalLines,
              attributes: this.principalAttributes,
              file: this.relativePath(principalsFile),
            },
          }
        : {}),
      at: (pointer, severity, message, hint) => ({
        file,
        line: settingsLine(ws, pointer),
        severity,
        key: displayPath(pointer),
        message,
        ...(hint ? { hint } : {}),
      }),
    });
  }

  /** Throws an InputError naming every access settings error: access that cannot be decided is not applied at all. */
  requireDecidableAccess(): void {
    const errors = this.accessDiagnostics().filter((d) => d.severity === 'error');
    if (errors.length === 0) return;
    const first = errors[0]!; // errors is not empty (returned above)
    throw new InputError(first.message, errors, { file: first.file, line: first.line, key: first.key, hint: first.hint });
  }

  /** How many documents `missingAcl` decides, the first few named, for every command that applies access; undefined when none. */
  missingAclNote(): string | undefined {
    return missingAclSummary(this.policy(), this.workspace.settings.acl.missingAclStated, this.corpus().docs);
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
      const principal = findPrincipal(
        this.principals(),
        name,
        this.relativePath(this.principalsFile() ?? 'principals.json'),
        this.principalSkips,
      );
      this.requireDecidableAccess();
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
  judgmentsAs(opts: { split?: 'tune' | 'holdout' | 'all'; principal?: string; relevanceThreshold?: number }): {
    judgments: JudgmentSet;
    excluded: ExcludedQuery[];
  } {
    let set = this.judgments();
    if (opts.split && opts.split !== 'all') set = filterBySplit(set, opts.split);
    if (!opts.principal) return { judgments: set, excluded: [] };
    const { filter } = this.accessFor(opts.principal);
    const relevanceThreshold = opts.relevanceThreshold ?? this.workspace.settings.relevanceThreshold;
    return judgmentsVisibleTo(set, filter, { principal: opts.principal, relevanceThreshold });
  }

  // ---- engines and search -------------------------------------------------------------------

  /**
   * The config's engine, built (or loaded from the cache) once and kept: the local pipeline over the workspace
   * corpus, or, for a config with an `engine` section, the external engine it names (src/core/engines; no corpus
   * needed). A build follows the cancellation of the caller that started it (`work`); another caller waiting for it
   * stops only on its own cancellation, and starts the build again if the starter cancelled.
   */
  async engine(config: RankConfig, work: Work = Work.none): Promise<Engine> {
    let entry = this.engines.get(config.configHash);
    if (entry?.signal?.aborted) entry = undefined;
    if (!entry) {
      if (this.writeCache) ensureRanklabDir(this.workspace);
      const providers = {
        baseDir: this.root,
        cacheDir: this.writeCache ? join(this.workspace.cacheDir, 'embeddings') : undefined,
        allowNetwork: this.options.allowNetwork ?? true,
        allowModelLoading: this.options.allowModelLoading ?? true,
      };
      const pending = config.engine
        ? (async () => new RemoteEngine(config, { allowNetwork: providers.allowNetwork, providers }))()
        : createEngine({
            docs: this.corpus().docs,
            corpusFingerprint: this.corpus().fingerprint,
            corpusName: this.corpusName(),
            config,
            cacheDir: this.writeCache ? this.workspace.cacheDir : undefined,
            rerankCache: this.rerankCache,
            shared: this.sharedParts,
            providers,
            work,
          });
      const created: { pending: Promise<Engine>; signal?: AbortSignal } = { pending, signal: work.signal };
      pending.then(
        (e) => {
          created.signal = undefined; // built: no longer cancellable
          this.log(`engine ${config.name}: ${describeBuild(e)}`);
          for (const w of e.build.warnings ?? []) this.warn(`config ${config.name}: ${w}`);
        },
        () => {
          if (this.engines.get(config.configHash) === created) this.engines.delete(config.configHash);
        },
      );
      this.engines.set(config.configHash, (entry = created));
    }
    const mine = entry.signal === work.signal;
    try {
      return await abortable(entry.pending, work.signal);
    } catch (e) {
      if (!mine && entry.signal?.aborted && !work.signal?.aborted) return this.engine(config, work);
      throw e;
    }
  }

  /**
   * Forgets the engine of one config (a sweep's combination, used once): the session keeps no engine per
   * combination. Whatever the engine shares with others (cached indexes, reranker scores) stays.
   */
  releaseEngine(config: RankConfig): void {
    this.engines.delete(config.configHash);
  }

  /** Drops every engine (the next use rebuilds or reloads indexes from the cache). */
  dropEngines(): void {
    this.engines.clear();
    this.sharedParts.clear();
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

  /**
   * One page of results, each with its title: a remote engine's own copy of the title (as in searchView), else the
   * workspace corpus's. A document without a title has none (the caller shows its id).
   */
  async search(
    config: RankConfig,
    text: string,
    opts: { principal?: string; pageSize?: number; signal?: AbortSignal } = {},
  ): Promise<SearchResult> {
    const engine = await this.engine(config);
    const access = opts.principal ? this.accessFor(opts.principal) : undefined;
    const r = await engine.search(text, {
      filter: access?.filter,
      principal: access?.principal,
      pageSize: opts.pageSize ?? config.pageSize,
      fetchText: true,
      signal: opts.signal,
    });
    const docs = r.docs.map((d) => {
      const title = r.texts?.get(d.id)?.title ?? this.document(d.id)?.title;
      return title ? { ...d, title } : d;
    });
    return { ...r, docs };
  }

  // ---- what a user sees: everything filtered by the principal's access (see search-view.ts) ---

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
  async searchView(
    config: RankConfig,
    text: string,
    opts: { principal?: string; pageSize?: number; snippetChars?: number; signal?: AbortSignal } = {},
  ): Promise<SearchView> {
    const engine = await this.engine(config);
    const access = opts.principal ? this.accessFor(opts.principal) : undefined;
    return buildSearchView(engine, text, {
      filter: access?.filter,
      principal: access?.principal,
      pageSize: opts.pageSize ?? config.pageSize,
      docs: (id) => this.document(id),
      analyzer: configAnalyzer(config),
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

/** The qrels files of a BEIR folder (qrels/*.tsv). */
function beirQrels(dir: string): string[] {
  try {
    return readdirSync(join(dir, 'qrels')).map((f) => join(dir, 'qrels', f));
  } catch {
    return [];
  }
}

function mapSpec(spec: JudgmentSpec, f: (path: string) => string): JudgmentSpec {
  const out: JudgmentSpec = { ...spec };
  for (const k of ['qrels', 'queries', 'golden', 'beir', 'raters'] as const) if (spec[k]) out[k] = f(spec[k]!);
  return out;
}

/** The workspace's own .ranklab folder, unless it is read-only (no write bit for anyone) or a folder was given. */
function stateDirFor(root: string, explicit: string | undefined): string {
  if (explicit) return resolve(explicit);
  const own = join(root, '.ranklab');
  let writable: boolean;
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
  if (e.build.vector)
    parts.push(
      `vector ${e.build.vector.source} in ${e.build.vector.ms.toFixed(0)} ms (embedding ${e.build.vector.embedMs.toFixed(0)} ms, ${e.build.vector.embedderId}; exact scan: ${e.build.vector.scan === 'simd' ? 'WebAssembly SIMD' : 'JS'})`,
    );
  const shared = Object.entries(e.build.sharedWith ?? {}).map(([part, owner]) => `${part} shared with ${owner}`);
  return [...parts, ...shared].join('; ') + (e.build.notes.length ? `; ${e.build.notes.join('; ')}` : '');
}

/** The judged ids the corpus has: one pass over it against the judged ids (a set of every corpus id took ~1 s at 1M documents). */
function judgedIdsIn(set: JudgmentSet, corpus: Corpus): Set<string> {
  const judged = new Set<string>();
  for (const docs of set.qrels.values()) for (const id of docs.keys()) judged.add(id);
  const found = new Set<string>();
  for (const d of corpus.docs) if (judged.has(d.id)) found.add(d.id);
  return found;
}
