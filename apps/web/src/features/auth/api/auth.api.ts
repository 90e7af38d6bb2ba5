import { routes } from '@mirra/contracts';
import { api } from '../../../lib/api-client';
import type { TRegisterBody } from '../../../lib/api-types';

/** Sign-in payload: the email trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const authApi = {
  login: (email: string, password: string) =>
    api(routes.users.login, { body: { email: normaliseEmail(email), password } }),
  register: (body: TRegisterBody) =>
    api(routes.users.register, { body: { ...body, email: normaliseEmail(body.email as string) } }),
  activate: (uid: string, token: string) => api(routes.users.activate, { body: { uid, token } }),
  resendActivation: (email: string) =>
    api(routes.users.resendActivation, { body: { email: normaliseEmail(email) } }),
  resetPassword: (email: string) =>
    api(routes.users.resetPassword, { body: { email: normaliseEmail(email) } }),
  resetPasswordConfirm: (uid: string, token: string, newPassword: string) =>
    api(routes.users.resetPasswordConfirm, { body: { uid, token, new_password: newPassword } }),
  google: (credential: string) => api(routes.google.signIn, { body: { credential } }),
  createTelegramAuthKey: () => api(routes.telegram.createAuthKey),
  getTelegramToken: (uuid: string) => api(routes.telegram.getToken, { query: { uuid } }),
  config: () => api(routes.appConfig.get),
  geo: () => api(routes.geo.country),
};
