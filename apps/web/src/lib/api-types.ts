/**
 * Types of API bodies, inferred from the shared contracts: the web app never re-declares them.
 * Type-only imports, so no schema code reaches the browser bundle.
 */
import type { z } from 'zod';
import type {
  ZGeo,
  ZRegisterResponse,
  ZSavedQueryString,
  ZSignInToken,
  ZTelegramAuthKey,
  ZTelegramTokenResponse,
} from '@mirra/contracts';

export type {
  ErrorCode,
  TLoginBody,
  TProfileUpdateBody,
  TPublicConfig,
  TPublicUser,
  TRegisterBody,
  TTokenPair,
  TUser,
} from '@mirra/contracts';
export type TGeo = z.infer<typeof ZGeo>;
export type TRegisterResponse = z.infer<typeof ZRegisterResponse>;
export type TSavedQueryString = z.infer<typeof ZSavedQueryString>;
export type TSignInToken = z.infer<typeof ZSignInToken>;
export type TTelegramAuthKey = z.infer<typeof ZTelegramAuthKey>;
export type TTelegramTokenResponse = z.infer<typeof ZTelegramTokenResponse>;
