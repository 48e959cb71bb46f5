import { InputError } from '../../util/diagnostics';

/**
 * A model provider failed at run time: a service that cannot be reached, does not answer in time, answers
 * an error or something unusable, or a local model that cannot run. That is the user's environment or
 * settings, not a bug in Ranklab, so it is an InputError: the config that needs the provider is reported
 * ("config x not run: connection refused at http://…") and the other configs still run.
 */
export class ProviderError extends InputError {
  /**
   * @param where the endpoint URL, or the model (folder or id), that failed
   * @param status the HTTP status, when the service answered
   * @param cause the underlying error (network error, runtime exception)
   */
  constructor(message: string, readonly where: string, readonly status?: number, cause?: unknown) {
    super(message);
    this.name = 'ProviderError';
    if (cause !== undefined) this.cause = cause;
  }
}
