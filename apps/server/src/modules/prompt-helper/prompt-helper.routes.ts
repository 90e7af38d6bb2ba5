import { routes } from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { PromptHelperDeps } from './prompt-helper.deps.js';
import { writePrompt } from './prompt-helper.usecases.js';

/** The prompt helper: wishes in any interface language → an English prompt (generations are English only). */
export function registerPromptHelperRoutes(app: ZodApp, deps: PromptHelperDeps): void {
  serve(app, routes.promptHelper.write, async (request) =>
    writePrompt(deps, requireAuth(request).user.id, request.body),
  );
}
