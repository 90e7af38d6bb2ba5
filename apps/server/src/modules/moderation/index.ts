/**
 * The public face of the moderation module: the only file other modules and the composition root
 * import from it. Anything not exported here is the module's own business.
 */
export type { ImageModerator, PromptModerator } from './moderation.types.js';
export type { NsfwScores } from './image-moderation.models.js';
export {
  classifyNsfw,
  createNsfwImageModerator,
  createPassThroughImageModerator,
} from './nsfw-image-moderator.js';
export { createOpenAiModerationClient } from './openai-moderation.client.js';
export { isEnglishPrompt } from './prompt-language.models.js';
export { createPromptModerator } from './prompt-moderator.js';
