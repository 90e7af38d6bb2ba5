import { z } from 'zod';

/**
 * An OpenAI-compatible chat client: `POST {baseUrl}/chat/completions`. OpenAI
 * (https://api.openai.com/v1), OpenRouter, Ollama (http://localhost:11434/v1) and llama.cpp's
 * server all speak it; the key is optional because local servers need none.
 */
const ZChatCompletion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
});

export class ChatCompletionError extends Error {
  override name = 'ChatCompletionError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatCompletionsClient {
  complete(messages: ChatMessage[], options?: { maxTokens?: number; temperature?: number }): Promise<string>;
}

export function createChatCompletionsClient(options: {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}): ChatCompletionsClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    async complete(messages, settings = {}) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: options.model,
            messages,
            max_tokens: settings.maxTokens ?? 200,
            temperature: settings.temperature ?? 0.7,
          }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        throw new ChatCompletionError(`chat request failed: ${(error as Error).message}`);
      }
      if (!response.ok) {
        const body = await response.text().catch(() => '');
        throw new ChatCompletionError(
          `chat answered ${response.status}: ${body.slice(0, 200)}`,
          response.status,
        );
      }
      const parsed = ZChatCompletion.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new ChatCompletionError('chat answered an unexpected body');
      return parsed.data.choices[0]!.message.content ?? '';
    },
  };
}
