/** A moderation verdict: `flagged` refuses the prompt or result; categories say why (for logs). */
export interface ModerationVerdict {
  flagged: boolean;
  categories: string[];
}

/** Checks prompts in any of the six interface languages before anything is charged. */
export interface PromptModerator {
  check(text: string): Promise<ModerationVerdict>;
}

/** Checks a result image before the user sees it. */
export interface ImageModerator {
  check(image: Buffer): Promise<ModerationVerdict & { scores: Record<string, number> }>;
}
