import { ZGoogleBody, ZSignInToken } from '@mirra/contracts';
import { z } from 'zod';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { GoogleDeps } from './google.deps.js';
import { signInWithGoogle } from './google.usecases.js';
import { pickReferralCode } from '../users/index.js';

export function registerGoogleRoutes(app: ZodApp, deps: GoogleDeps): void {
  app.post(
    '/api/auth/google/',
    {
      config: { auth: 'optional' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a Google ID token; signed in, it links Google to your account',
        body: ZGoogleBody.extend({ referral_code: z.string().max(64).nullish() }),
        response: { 200: ZSignInToken },
      },
    },
    async (request) => {
      const pair = await signInWithGoogle(
        deps,
        request.body.credential,
        request.auth?.user ?? null,
        pickReferralCode(request.body.referral_code, request.cookies),
      );
      return { token: pair.refresh, ...pair };
    },
  );
}
