import { routes } from '@mirra/contracts';
import { serve } from '../../shared/http/serve-route.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { GoogleDeps } from './google.deps.js';
import { signInWithGoogle } from './google.usecases.js';
import { pickReferralCode } from '../users/index.js';

export function registerGoogleRoutes(app: ZodApp, deps: GoogleDeps): void {
  serve(app, routes.google.signIn, async (request) => {
    const pair = await signInWithGoogle(
      deps,
      request.body.credential,
      request.auth?.user ?? null,
      pickReferralCode(request.body.referral_code, request.cookies),
    );
    return { token: pair.refresh, ...pair };
  });
}
