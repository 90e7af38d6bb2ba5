import { ZPromptHelperBody, ZPromptHelperResult } from '@mirra/contracts';
import { requireAuth } from '../../app/authenticate.js';
import type { ZodApp } from '../../app/build-server.js';
import type { AppDeps } from '../../app/deps.js';
import { writePrompt } from './prompt-helper.usecases.js';

/** The prompt helper: wishes in any interface language → an English prompt (generations are English only). */
export function registerPromptHelperRoutes(app: ZodApp, deps: AppDeps): void {
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
