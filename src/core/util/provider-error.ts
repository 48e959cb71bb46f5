import { InputError } from './diagnostics';

/** What a ProviderError says besides its reason: the config setting it is about, a hint, the HTTP status, the cause. */
export interface ProviderFailure {
  /** The setting of the config the failing provider comes from ("vector.embedder", "rerank.provider.timeoutMs"). */
  key?: string;
  hint?: string;
  /** The HTTP status, when the service answered. */
  status?: number;
  /** The underlying error (network error, runtime exception). */
  cause?: unknown;
}

/**
 * A model provider or a search engine (engines/) failed at run time: a service that cannot be reached, does not answer in time, answers
 * an error or something unusable, or a local model that cannot run. That is the user's environment or
 * settings, not a bug in Ranklab, so it is an InputError (exit 2, `key: reason (hint)`): the config that needs
 * the provider is reported ("config x not run: vector.embedder: connection refused (ECONNREFUSED) at http://…")
 * and the other configs still run.
 */
export class ProviderError extends InputError {
  readonly status?: number;

  /** @param where the endpoint URL, or the model (folder or id), that failed */
  constructor(
    reason: string,
    readonly where: string,
    failure: ProviderFailure = {},
  ) {
    super(reason, [], { key: failure.key, hint: failure.hint });
    this.name = 'ProviderError';
    if (failure.status !== undefined) this.status = failure.status;
    if (failure.cause !== undefined) this.cause = failure.cause;
  }
}
