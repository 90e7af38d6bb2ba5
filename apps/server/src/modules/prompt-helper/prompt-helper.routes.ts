import { ZPromptHelperBody, ZPromptHelperResult } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { PromptHelperDeps } from './prompt-helper.deps.js';
import { writePrompt } from './prompt-helper.usecases.js';

/** The prompt helper: wishes in any interface language → an English prompt (generations are English only). */
export function registerPromptHelperRoutes(app: ZodApp, deps: PromptHelperDeps): void {
  app.post(
    '/api/prompt-helper/',
    {
      config: { auth: 'required' },
      schema: {
        tags: ['generations'],
        summary: 'Write an English prompt from a wish in any of the six languages',
        body: ZPromptHelperBody,
        response: { 200: ZPromptHelperResult },
        security: [{ bearer: [] }, { telegram: [] }],
      },
    },
    async (request) => writePrompt(deps, requireAuth(request).user.id, request.body),
  );
}
