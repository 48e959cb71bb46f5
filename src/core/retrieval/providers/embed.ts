import { ProviderError } from './errors';
import type { Embedder } from './types';

/**
 * `embedder.embed`, held to its contract of one vector per text: an embedder that answers short fails here, as the
 * provider's error, instead of as a missing vector read further on.
 */
export async function embedEach(
  embedder: Embedder,
  texts: string[],
  kind: 'query' | 'document',
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const vectors = await embedder.embed(texts, kind, signal);
  if (vectors.length !== texts.length)
    throw new ProviderError(`embedder ${embedder.id} returned ${vectors.length} vectors for ${texts.length} texts`, embedder.id);
  return vectors;
}

/** The vector of one query text. */
export async function embedQuery(embedder: Embedder, text: string, signal?: AbortSignal): Promise<Float32Array> {
  const [vector] = await embedEach(embedder, [text], 'query', signal);
  return vector!; // one text, one vector (checked)
}
