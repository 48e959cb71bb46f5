/**
 * The two pluggable model roles. Providers: `lsa` (built-in, offline), `transformers` (local ONNX),
 * `http` (OpenAI-compatible embeddings / Cohere-Jina-TEI rerank), `precomputed` (vectors in the corpus).
 */
export interface Embedder {
  /** Cache key part: provider + model + every setting that changes the vectors. */
  readonly id: string;
  /** Vector length, once known. */
  readonly dimension: number | undefined;
  /** One vector per text, same order. `kind` lets asymmetric models prefix queries differently. */
  embed(texts: string[], kind: 'query' | 'document', signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface Reranker {
  readonly id: string;
  /** A relevance score per passage for this query (higher is better), same order as `passages`. */
  score(query: string, passages: string[], signal?: AbortSignal): Promise<number[]>;
}
