import { defineRoute } from './define-route.js';

const tags = ['users'];

/** Accounts: djoser-style paths, trailing slashes included. */
export const usersRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/api/token/login/',
    auth: 'none',
    tags: ['auth'],
    summary: 'Sign in with email and password',
    body: 'ZLoginBody',
    response: { 200: 'ZSignInPair' },
    errors: ['auth.invalid_credentials', 'common.throttled'],
  }),
  register: defineRoute({
    method: 'POST',
    path: '/api/users/',
    auth: 'none',
    tags,
    summary: 'Register with email and password',
    body: 'ZRegisterBody',
    response: { 201: 'ZRegisterResponse' },
    errors: ['users.email_taken', 'users.username_taken', 'common.throttled'],
  }),
  activate: defineRoute({
    method: 'POST',
    path: '/api/users/activation/',
    auth: 'none',
    tags,
    summary: 'Activate an account from the emailed link and sign its owner in',
    body: 'ZUidTokenBody',
    response: { 200: 'ZSignInPair' },
    errors: ['users.activation_invalid', 'users.activation_stale'],
  }),
  resendActivation: defineRoute({
    method: 'POST',
    path: '/api/users/resend_activation/',
    auth: 'none',
    tags,
    summary: 'Send the activation email again',
    body: 'ZEmailBody',
    response: { 204: 'ZNoContent' },
    errors: ['common.throttled'],
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: '/api/users/reset_password/',
    auth: 'none',
    tags,
    summary: 'Email a password reset link (answers 204 either way)',
    body: 'ZEmailBody',
    response: { 204: 'ZNoContent' },
    errors: ['common.throttled'],
  }),
  resetPasswordConfirm: defineRoute({
    method: 'POST',
    path: '/api/users/reset_password_confirm/',
    auth: 'none',
    tags,
    summary: 'Set a new password from a reset link',
    body: 'ZResetPasswordConfirmBody',
    response: { 204: 'ZNoContent' },
    errors: ['users.reset_invalid'],
  }),
  setPassword: defineRoute({
    method: 'POST',
    path: '/api/users/set_password/',
    auth: 'required',
    tags,
    summary: 'Change the password',
    security: ['bearer'],
    body: 'ZSetPasswordBody',
    response: { 204: 'ZNoContent' },
    errors: ['users.current_password_invalid'],
  }),
  me: defineRoute({
    method: 'GET',
    path: '/api/users/me/',
    auth: 'required',
    tags,
    summary: 'The signed-in user',
    response: { 200: 'ZUser' },
  }),
  replaceMe: defineRoute({
    method: 'PUT',
    path: '/api/users/me/',
    auth: 'required',
    tags,
    summary: 'Edit my profile (fields left out stay as they are)',
    body: 'ZProfileUpdateBody',
    response: { 200: 'ZUser' },
    errors: ['users.username_taken'],
  }),
  updateMe: defineRoute({
    method: 'PATCH',
    path: '/api/users/me/',
    auth: 'required',
    tags,
    summary: 'Edit my profile (fields left out stay as they are)',
    body: 'ZProfileUpdateBody',
    response: { 200: 'ZUser' },
    errors: ['users.username_taken'],
  }),
  deleteMe: defineRoute({
    method: 'DELETE',
    path: '/api/users/me/',
    auth: 'required',
    tags,
    summary:
      'Delete my account: photos, models, uploads and results go, posts are anonymised or deleted, sessions end; money ledgers stay, detached from me',
    body: 'ZDeleteAccountBody',
    response: { 204: 'ZNoContent' },
    errors: ['users.current_password_invalid'],
  }),
  exportMe: defineRoute({
    method: 'POST',
    path: '/api/users/me/export/',
    auth: 'required',
    tags,
    summary: 'A link that works once, for 15 minutes, to download my data (JSON and files, one ZIP)',
    response: { 200: 'ZAccountExportLink' },
  }),
  exportDownload: defineRoute({
    method: 'GET',
    path: '/api/users/me/export/download/',
    auth: 'none',
    tags,
    summary: 'My data as a ZIP, by the signed key of an export link (used up by the first download)',
    query: 'ZAccountExportQuery',
    replyKind: 'binary',
    errors: ['common.not_found'],
  }),
  byId: defineRoute({
    method: 'GET',
    path: '/api/users/by_id/',
    auth: 'required',
    tags,
    summary: 'Another user’s public profile by id or uuid',
    query: 'ZByIdQuery',
    response: { 200: 'ZPublicUser' },
    errors: ['users.not_found'],
  }),
  byIds: defineRoute({
    method: 'GET',
    path: '/api/users/by_ids/',
    auth: 'required',
    tags,
    summary: 'Public profiles for repeated id[] values',
    query: 'ZByIdsQuery',
    response: { 200: 'ZPublicUserList' },
  }),
};

/** Where a caller is: open to guests too (the sign-in popup picks the offer and privacy links by country). */
export const geoRoutes = {
  country: defineRoute({
    method: 'GET',
    path: '/api/users/geo/',
    auth: 'none',
    tags,
    summary: 'The caller’s country',
    response: { 200: 'ZGeo' },
  }),
};

/** Sessions: refresh with rotation, logout. */
export const authRoutes = {
  refresh: defineRoute({
    method: 'POST',
    path: '/api/auth/refresh/',
    auth: 'none',
    tags: ['auth'],
    summary: 'Exchange a refresh token for a new pair (the old one stops working)',
    body: 'ZRefreshBody',
    response: { 200: 'ZTokenPair' },
    errors: ['auth.token_invalid', 'auth.token_expired', 'auth.token_revoked'],
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/token/logout/',
    auth: 'required',
    tags: ['auth'],
    summary: 'Sign out: revokes this session’s tokens',
    security: ['bearer'],
    body: 'ZLogoutBody',
    response: { 204: 'ZNoContent' },
  }),
};

export const googleRoutes = {
  signIn: defineRoute({
    method: 'POST',
    path: '/api/auth/google/',
    auth: 'optional',
    tags: ['auth'],
    summary: 'Sign in with a Google ID token; signed in, it links Google to your account',
    body: 'ZGoogleSignInBody',
    response: { 200: 'ZSignInToken' },
    errors: ['auth.google_invalid', 'auth.google_unavailable', 'users.identity_taken'],
  }),
};

export const telegramRoutes = {
  signIn: defineRoute({
    method: 'POST',
    path: '/api/auth/base/',
    auth: 'none',
    tags: ['telegram'],
    summary: 'Exchange Mini App init data (header `TG <initData>` or body `init_data`) for tokens',
    body: 'ZTelegramBaseBody',
    response: { 200: 'ZSignInToken' },
    errors: ['auth.init_data_invalid', 'auth.init_data_expired'],
  }),
  createAuthKey: defineRoute({
    method: 'POST',
    path: '/api/tg/create_auth_key/',
    auth: 'optional',
    tags: ['telegram'],
    summary: 'Start a sign-in through the bot; signed in, it links Telegram to your account',
    body: 'ZAnyBody',
    response: { 200: 'ZTelegramAuthKey' },
    errors: ['auth.telegram_unavailable', 'common.throttled'],
  }),
  getToken: defineRoute({
    method: 'GET',
    path: '/api/tg/get_token/',
    auth: 'none',
    tags: ['telegram'],
    summary: 'Poll for the sign-in token (null until the user presses Start; given once)',
    query: 'ZTelegramTokenQuery',
    response: { 200: 'ZTelegramTokenResponse' },
    errors: ['telegram.auth_key_unknown', 'telegram.auth_key_gone'],
  }),
  webhook: defineRoute({
    method: 'POST',
    path: '/api/tg/webhook/',
    auth: 'none',
    tags: ['telegram', 'webhooks'],
    summary: 'Bot updates from Telegram (checked by the secret-token header)',
    body: 'ZTelegramUpdate',
    response: { 200: 'ZOk' },
    errors: ['telegram.webhook_forbidden'],
  }),
};

/**
 * Saved query strings behind short ids: a Mini App link can only carry a 64-character start
 * parameter, so `qs_<id>` stands for a longer query the app then reloads with.
 */
export const qsRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/qs/',
    auth: 'none',
    tags: ['telegram'],
    summary: 'The query string saved as `qs_<id>`',
    query: 'ZQsQuery',
    response: { 200: 'ZSavedQueryString' },
    errors: ['qs.not_found'],
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/qs/',
    auth: 'required',
    tags: ['telegram'],
    summary: 'Save a query string for a `qs_<id>` start parameter',
    body: 'ZCreateQsBody',
    response: { 201: 'ZCreatedQs' },
  }),
};

export const appConfigRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/config/',
    auth: 'none',
    tags: ['app'],
    summary: 'Public settings of this server (sign-in options, support contacts)',
    response: { 200: 'ZPublicConfig' },
  }),
};

/**
 * Development only (NODE_ENV ≠ production and DEV_TELEGRAM_MOCK=true): signed Mini App init data
 * for a test user, so the web app can be tried "inside Telegram" on a plain browser.
 */
export const devRoutes = {
  telegramInitData: defineRoute({
    method: 'GET',
    path: '/api/dev/telegram-init-data/',
    auth: 'none',
    tags: ['dev'],
    summary: 'Signed Telegram init data for the dev Mini App mode (development only)',
    hidden: true,
    query: 'ZDevInitDataQuery',
    response: { 200: 'ZDevInitData' },
  }),
};
