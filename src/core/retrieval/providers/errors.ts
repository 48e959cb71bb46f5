// ProviderError lives in util/ since the shared HTTP client (util/http-client.ts) throws it for engines too.
export { ProviderError, type ProviderFailure } from '../../util/provider-error';
