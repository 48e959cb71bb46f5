/**
 * The one table of external engine kinds (`engine.kind` of a `*.rank.json`): each kind declared once with the
 * facts of its dialect that the rest of Ranklab needs. The config's checks and defaults (this floor), the engine
 * adapter (src/core/engines/: which `Dialect` serves it, how the access filter joins the query, how vectors are
 * mapped) and the CLI read these facts rather than testing for a kind by name. It lives on the config floor, not in
 * engines/, because the config floor validates kinds and may not import the floors above it.
 * `schemas/rank.schema.json` lists the same kinds (test/unit/engines/engine-kinds.test.ts keeps them equal).
 */
import { nearMissOf } from '../util/near-miss';

export interface EngineKindFacts {
  /** As people write it: messages, usage text. */
  readonly displayName: string;
  /** The `Dialect` implementation that speaks to it (src/core/engines/<dialect>.ts). */
  readonly dialect: 'opensearch' | 'solr';
  /**
   * What a query is: `body`, the `_search` request body, with the access filter placed at its `"{{filter}}"` slot
   * and queries batched through `_msearch`; `params`, the request parameters, with the filter's parameters added to
   * them (a parameter in both becomes multi-valued), one request per query.
   */
  readonly query: 'body' | 'params';
  /** What it calls the place documents live (`engine.index`): an index, a core/collection. */
  readonly collection: 'index' | 'core';
  /** The field holding a document's id when `engine.idField` is not set. */
  readonly defaultIdField: string;
  /** How `ranklab index` maps a document vector field. */
  readonly vectorField: 'knn_vector' | 'dense_vector' | 'DenseVectorField';
}

const DECLARED = {
  opensearch: {
    displayName: 'OpenSearch',
    dialect: 'opensearch',
    query: 'body',
    collection: 'index',
    defaultIdField: '_id',
    vectorField: 'knn_vector',
  },
  elasticsearch: {
    displayName: 'Elasticsearch',
    dialect: 'opensearch',
    query: 'body',
    collection: 'index',
    defaultIdField: '_id',
    vectorField: 'dense_vector',
  },
  solr: {
    displayName: 'Solr',
    dialect: 'solr',
    query: 'params',
    collection: 'core',
    defaultIdField: 'id',
    vectorField: 'DenseVectorField',
  },
} as const satisfies Record<string, EngineKindFacts>;

export type EngineKind = keyof typeof DECLARED;

/** Every kind, in the table's order. */
export const ENGINE_KINDS = Object.keys(DECLARED) as EngineKind[];

/** The facts of a kind (a schema-valid config's `engine.kind`). */
export function engineKind(kind: EngineKind): EngineKindFacts {
  return DECLARED[kind];
}

/** What is wrong with an `engine.kind` that is not in the table, with the kind it was probably meant to be. */
export function unknownEngineKindMessage(value: unknown): string {
  const kinds = ENGINE_KINDS.map((k) => JSON.stringify(k)).join(', ');
  const guess = typeof value === 'string' ? nearMissOf(value, ENGINE_KINDS, new Set()) : undefined;
  return `unknown engine kind ${JSON.stringify(value)}${guess ? ` (did you mean "${guess}"?)` : ''}: the kinds are ${kinds}`;
}

/**
 * The kinds grouped by what they call their collection, as usage text says it: `index (OpenSearch/Elasticsearch)
 * or core (Solr)`.
 */
export function engineCollectionsText(): string {
  const groups = new Map<string, string[]>();
  for (const k of ENGINE_KINDS)
    groups.set(DECLARED[k].collection, [...(groups.get(DECLARED[k].collection) ?? []), DECLARED[k].displayName]);
  return [...groups].map(([collection, names]) => `${collection} (${names.join('/')})`).join(' or ');
}
