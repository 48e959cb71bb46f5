/**
 * OpenAI-compatible chat completions over HTTP (`POST {baseUrl}/chat/completions`, `{model, messages, temperature}`
 * → `{choices: [{message: {content, refusal?}, finish_reason}]}`), through the HTTP providers' request machinery:
 * the API key from the environment variable `apiKeyEnv` names (never stored), `timeoutMs`, `maxRetries` with backoff
 * from `retryDelayMs` (Retry-After wins). Refused when the network is not allowed (untrusted workspace).
 */
import { jsonPoster } from '../retrieval/providers/http';
import type { ChatAnswer, ChatClient, LlmJudgeSettings } from './llm-judge';

export interface ChatClientOptions {
  allowNetwork: boolean;
  env?: Record<string, string | undefined>;
  /** Replaceable in tests that want to see the waits without waiting. */
  sleep?: (ms: number) => Promise<void>;
}

export function createChatClient(settings: LlmJudgeSettings, opts: ChatClientOptions): ChatClient {
  const url = `${settings.baseUrl}/chat/completions`;
  const post = jsonPoster(
    {
      provider: 'http',
      url,
      model: settings.model,
      ...(settings.apiKeyEnv && { apiKeyEnv: settings.apiKeyEnv }),
      timeoutMs: settings.timeoutMs,
      maxRetries: settings.maxRetries,
    },
    {
      allowNetwork: opts.allowNetwork,
      settingPath: 'judging.llm',
      env: opts.env,
      retryBaseMs: settings.retryDelayMs,
      ...(opts.sleep && { sleep: opts.sleep }),
    },
  );
  return async (request, signal, onSend) => answerOf(await post(request, signal, onSend), url);
}

function answerOf(json: unknown, url: string): ChatAnswer {
  const choice = (json as { choices?: unknown })?.choices;
  const first = Array.isArray(choice)
    ? (choice[0] as { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown } | undefined)
    : undefined;
  if (!first || typeof first.message !== 'object' || first.message === null) {
    throw new Error(`unexpected response from ${url}: expected {"choices": [{"message": {"content"}}]} (judging.llm.baseUrl)`);
  }
  const { content, refusal } = first.message;
  return {
    content: typeof content === 'string' ? content : null,
    refusal: typeof refusal === 'string' && refusal !== '' ? refusal : null,
    finishReason: typeof first.finish_reason === 'string' ? first.finish_reason : null,
  };
}
