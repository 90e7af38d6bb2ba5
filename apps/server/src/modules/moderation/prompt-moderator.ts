import type { Logger } from '../../shared/logger.js';
import type { PromptModerator } from './moderation.types.js';
import type { OpenAiModerationClient } from './openai-moderation.client.js';
import { judgeOpenAiModeration, moderatePromptText } from './prompt-moderation.models.js';

/**
 * The prompt moderator: the project's word list always (it knows the six languages and costs
 * nothing), then OpenAI's moderation when a key is configured, for what a list cannot see.
 * When OpenAI fails (down, slow, rate-limited) the word list's verdict stands alone, so a provider
 * outage never blocks generation.
 */
export function createPromptModerator(options: {
  openai: OpenAiModerationClient | null;
  logger: Logger;
}): PromptModerator {
  return {
    async check(text) {
      if (!text.trim()) return { flagged: false, categories: [] };
      const local = moderatePromptText(text);
      if (local.flagged || !options.openai) return local;
      try {
        return judgeOpenAiModeration(await options.openai.moderate(text));
      } catch (error) {
        options.logger.warn(
          { err: { message: (error as Error).message } },
          'OpenAI moderation failed; the word list decided alone',
        );
        return local;
      }
    },
  };
}
