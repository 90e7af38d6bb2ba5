import type { TGenerationMode } from '@mirra/contracts';
import type { z } from 'zod';
import type { ZPromptHelperResult } from '@mirra/contracts';
import type { PromptHelperDeps } from './prompt-helper.deps.js';
import { createChatCompletionsClient } from './chat-completions.client.js';
import { cleanModelPrompt, systemPromptFor, writeOfflinePrompt } from './prompt-helper.models.js';

type PromptHelperResult = z.infer<typeof ZPromptHelperResult>;

/**
 * Turns a wish in any of the six languages into an English prompt for the engine that will serve
 * its mode (no photographic words for an engine that only draws). A configured OpenAI-compatible
 * model writes it; when none is configured, or it fails, times out or answers something unusable,
 * the bundled phrasebook does, and the answer says so (`source: 'offline'`).
 */
export async function writePrompt(
  deps: PromptHelperDeps,
  userId: number,
  wish: { text: string; mode?: TGenerationMode },
): Promise<PromptHelperResult> {
  const { rateLimits, promptHelper } = deps.config;
  const offer = wish.mode ? deps.engines.offerFor(wish.mode) : null;
  // Each call may cost a paid model request.
  await deps.rateLimiter.hit([
    {
      key: `prompt-helper:user:${userId}`,
      limit: rateLimits.promptHelperPerUser,
      windowSeconds: rateLimits.windowSeconds,
    },
  ]);
  if (promptHelper.baseUrl) {
    const model = createChatCompletionsClient({
      baseUrl: promptHelper.baseUrl,
      apiKey: promptHelper.apiKey,
      model: promptHelper.model,
      timeoutMs: promptHelper.timeoutSeconds * 1000,
    });
    try {
      const answer = await model.complete([
        { role: 'system', content: systemPromptFor(wish.mode, offer) },
        { role: 'user', content: wish.text },
      ]);
      const prompt = cleanModelPrompt(answer);
      if (prompt) return { prompt, source: 'llm' };
      deps.logger.warn(
        { answer: answer.slice(0, 200) },
        'prompt helper model answered no usable English prompt',
      );
    } catch (error) {
      deps.logger.warn(
        { err: { message: (error as Error).message } },
        'prompt helper model failed; offline fallback',
      );
    }
  }
  return { prompt: writeOfflinePrompt(wish.text, wish.mode, offer), source: 'offline' };
}
