import { z } from 'zod';

/**
 * OpenAI's moderation endpoint: `POST {baseUrl}/v1/moderations` with `omni-moderation-latest`
 * (free of charge). OPENAI_BASE_URL points it at OpenAI, a compatible proxy, or the test fake.
 */
export const OPENAI_MODERATION_MODEL = 'omni-moderation-latest';

const ZModerationResponse = z.object({
  results: z
    .array(
      z.object({
        flagged: z.boolean(),
        categories: z.record(z.string(), z.boolean()),
        category_scores: z.record(z.string(), z.number()),
      }),
    )
    .min(1),
});
export type OpenAiModerationResult = z.infer<typeof ZModerationResponse>['results'][number];

export class OpenAiModerationError extends Error {
  override name = 'OpenAiModerationError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface OpenAiModerationClient {
  moderate(text: string): Promise<OpenAiModerationResult>;
}

export function createOpenAiModerationClient(options: {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
}): OpenAiModerationClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v1/moderations`;
  return {
    async moderate(text) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
          body: JSON.stringify({ model: OPENAI_MODERATION_MODEL, input: text }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        throw new OpenAiModerationError(`moderation request failed: ${(error as Error).message}`);
      }
      if (!response.ok) {
        // The body is OpenAI's `{error: {message, type, code}}`; only the status matters to callers.
        const body = await response.text().catch(() => '');
        throw new OpenAiModerationError(
          `moderation answered ${response.status}: ${body.slice(0, 200)}`,
          response.status,
        );
      }
      const parsed = ZModerationResponse.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new OpenAiModerationError('moderation answered an unexpected body');
      return parsed.data.results[0]!;
    },
  };
}
