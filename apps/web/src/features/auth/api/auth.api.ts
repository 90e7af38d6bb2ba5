import { api } from '../../../lib/api-client';
import type {
  TGeo,
  TPublicConfig,
  TRegisterBody,
  TRegisterResponse,
  TSignInToken,
  TTelegramAuthKey,
  TTelegramTokenResponse,
  TTokenPair,
} from '../../../lib/api-types';

/** Sign-in payload: the email trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const authApi = {
  login: (email: string, password: string) =>
    api.post<TTokenPair>('/api/token/login/', { email: normaliseEmail(email), password }),
  register: (body: TRegisterBody) =>
    api.post<TRegisterResponse>('/api/users/', { ...body, email: normaliseEmail(body.email as string) }),
  activate: (uid: string, token: string) => api.post<TTokenPair>('/api/users/activation/', { uid, token }),
  resendActivation: (email: string) =>
    api.post<null>('/api/users/resend_activation/', { email: normaliseEmail(email) }),
  resetPassword: (email: string) =>
    api.post<null>('/api/users/reset_password/', { email: normaliseEmail(email) }),
  resetPasswordConfirm: (uid: string, token: string, newPassword: string) =>
    api.post<null>('/api/users/reset_password_confirm/', { uid, token, new_password: newPassword }),
  google: (credential: string) => api.post<TSignInToken>('/api/auth/google/', { credential }),
  createTelegramAuthKey: () => api.post<TTelegramAuthKey>('/api/tg/create_auth_key/'),
  getTelegramToken: (uuid: string) =>
    api.get<TTelegramTokenResponse>('/api/tg/get_token/', { query: { uuid } }),
  config: () => api.get<TPublicConfig>('/api/config/'),
  geo: () => api.get<TGeo>('/api/users/geo/'),
};
