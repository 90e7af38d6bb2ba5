import { z } from 'zod';
import {
  ZByIdQuery,
  ZByIdsQuery,
  ZEmailBody,
  ZLoginBody,
  ZProfileUpdateBody,
  ZPublicUser,
  ZRegisterBody,
  ZRegisterResponse,
  ZResetPasswordConfirmBody,
  ZSetPasswordBody,
  ZTokenPair,
  ZUidTokenBody,
  ZUser,
  pickLanguage,
} from '@mirra/contracts';
import { requireAuth } from '../../shared/http/auth-context.js';
import type { ZodApp } from '../../shared/http/zod-app.js';
import type { UsersDeps } from './users.deps.js';
import {
  activateUser,
  confirmPasswordReset,
  findPublicUser,
  findPublicUsers,
  loginWithPassword,
  registerUser,
  requestPasswordReset,
  resendActivation,
  setPassword,
  updateProfile,
} from './users.usecases.js';
import { toUserJson } from './users.serializers.js';
import { pickReferralCode } from './users.models.js';

const tags = ['users'];
const noContent = { 204: z.null().describe('No content') };

/** Accounts: djoser-style paths, trailing slashes included. */
export function registerUsersRoutes(app: ZodApp, deps: UsersDeps): void {
  app.post(
    '/api/token/login/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        body: ZLoginBody,
        response: { 200: ZTokenPair },
      },
    },
    async (request) => loginWithPassword(deps, request.body, request.ip),
  );

  app.post(
    '/api/users/',
    {
      schema: {
        tags,
        summary: 'Register with email and password',
        body: ZRegisterBody,
        response: { 201: ZRegisterResponse },
      },
    },
    async (request, reply) => {
      const language = pickLanguage(request.headers['accept-language']);
      const created = await registerUser(
        deps,
        { ...request.body, referral_code: pickReferralCode(request.body.referral_code, request.cookies) },
        { ip: request.ip, language },
      );
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/api/users/activation/',
    {
      schema: {
        tags,
        summary: 'Activate an account from the emailed link and sign its owner in',
        body: ZUidTokenBody,
        response: { 200: ZTokenPair },
      },
    },
    async (request) => activateUser(deps, request.body),
  );

  app.post(
    '/api/users/resend_activation/',
    {
      schema: { tags, summary: 'Send the activation email again', body: ZEmailBody, response: noContent },
    },
    async (request, reply) => {
      await resendActivation(deps, request.body.email, request.ip);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/users/reset_password/',
    {
      schema: {
        tags,
        summary: 'Email a password reset link (answers 204 either way)',
        body: ZEmailBody,
        response: noContent,
      },
    },
    async (request, reply) => {
      await requestPasswordReset(deps, request.body.email, request.ip);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/users/reset_password_confirm/',
    {
      schema: {
        tags,
        summary: 'Set a new password from a reset link',
        body: ZResetPasswordConfirmBody,
        response: noContent,
      },
    },
    async (request, reply) => {
      await confirmPasswordReset(deps, request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/users/set_password/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Change the password',
        body: ZSetPasswordBody,
        response: noContent,
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const { user, familyId } = requireAuth(request);
      await setPassword(deps, user, familyId, request.body);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/users/me/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'The signed-in user',
        response: { 200: ZUser },
        security: [{ bearer: [] }, { telegram: [] }],
      },
    },
    async (request) => toUserJson(requireAuth(request).user, deps.config.publicUrl),
  );

  for (const method of ['put', 'patch'] as const) {
    app[method](
      '/api/users/me/',
      {
        config: { auth: 'required' },
        schema: {
          tags,
          summary: 'Edit my profile (fields left out stay as they are)',
          body: ZProfileUpdateBody,
          response: { 200: ZUser },
          security: [{ bearer: [] }, { telegram: [] }],
        },
      },
      async (request) => updateProfile(deps, requireAuth(request).user, request.body),
    );
  }

  app.get(
    '/api/users/by_id/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Another user’s public profile by id or uuid',
        querystring: ZByIdQuery,
        response: { 200: ZPublicUser },
        security: [{ bearer: [] }, { telegram: [] }],
      },
    },
    async (request) => findPublicUser(deps, requireAuth(request).user.id, request.query.id),
  );

  app.get(
    '/api/users/by_ids/',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        summary: 'Public profiles for repeated id[] values',
        querystring: ZByIdsQuery,
        response: { 200: z.array(ZPublicUser) },
        security: [{ bearer: [] }, { telegram: [] }],
      },
    },
    async (request) => findPublicUsers(deps, requireAuth(request).user.id, request.query['id[]']),
  );
}
