import { z } from 'zod';
import { ZFreeTier, ZModePrices } from './pricing.js';
import { ZEmail, ZPasswordInput, requiredText } from './fields.js';
import { GENERATION_MODES } from './modes.js';
import { ZModeEngines } from './engine-capabilities.js';

export const ZLoginBody = z.object({ email: ZEmail, password: ZPasswordInput });
export type TLoginBody = z.input<typeof ZLoginBody>;

export const ZTokenPair = z.object({ refresh: z.string(), access: z.string() });
export type TTokenPair = z.infer<typeof ZTokenPair>;

/**
 * `created` on every sign-in answer: true only for the sign-in that made the account (a first
 * Google or Telegram sign-in, the activation link of an e-mail sign-up), so the app shows its
 * onboarding once, to a new person, and never to someone coming back.
 */
const ZCreated = z.boolean();

/** Tokens of a sign-in with e-mail and password, or of the activation link. */
export const ZSignInPair = ZTokenPair.extend({ created: ZCreated });
export type TSignInPair = z.infer<typeof ZSignInPair>;

export const ZRefreshBody = z.object({ refresh: requiredText(2048) });

export const ZLogoutBody = z
  .object({ refresh: z.string().max(2048).optional() })
  .nullish()
  .transform((v) => v ?? {});

/**
 * Token responses of the sign-in exchanges (Google, Telegram): `token` is the refresh token, which
 * the web client stores and refreshes from; the pair is there too so it needs no extra round trip.
 */
export const ZSignInToken = z.object({
  token: z.string(),
  refresh: z.string(),
  access: z.string(),
  created: ZCreated,
});

export const ZGoogleBody = z.object({ credential: requiredText(8192) });
/** Google sign-in as sent: the ID token, and the referral code of the link the person came by. */
export const ZGoogleSignInBody = ZGoogleBody.extend({ referral_code: z.string().max(64).nullish() });

export const ZTelegramBaseBody = z
  .object({ init_data: z.string().max(8192).optional() })
  .nullish()
  .transform((v) => v ?? {});

/** Access-token claims; `exp` is in seconds. */
export const ZAccessClaims = z.object({
  token_type: z.literal('access'),
  user_id: z.number().int(),
  jti: z.string(),
  exp: z.number(),
  iat: z.number(),
});

export { ZEmail, ZPasswordInput };

/** Public settings the web app needs before anyone signs in (which sign-in buttons to show). */
export const ZPublicConfig = z.object({
  /** Google client id for Google Identity Services; null hides the Google button. */
  google_client_id: z.string().nullable(),
  /** The bot's username for messenger sign-in; null hides the Telegram button. */
  telegram_bot_username: z.string().nullable(),
  /** Short name of the Mini App for t.me/<bot>/<app> links; null means the bot's main app. */
  telegram_mini_app_name: z.string().nullable(),
  public_url: z.string(),
  /** Where people get help from a person: a t.me link and/or an address; null when not configured. */
  support_telegram_url: z.string().nullable(),
  support_email: z.string().nullable(),
  /**
   * Where the web app reports its uncaught errors (a Sentry-compatible DSN, which is public by
   * design) and the release and environment they are filed under; null: errors are not reported.
   */
  error_reporting: z.object({ dsn: z.string(), release: z.string(), environment: z.string() }).nullable(),
  /**
   * Modes no configured engine can make (e.g. video set to a provider without its key): the app
   * does not offer them, and never quotes a price for them.
   */
  unavailable_modes: z.array(z.enum(GENERATION_MODES)),
  /**
   * The engine each mode goes to and what it can do, from the engines' own declarations: the app
   * says it before the price, and does not promise AI where no AI engine serves.
   */
  engines: ZModeEngines,
  /**
   * How digital models are made here: by a provider's AI training (a model trained on the
   * photos) or, with none configured, as a face profile built offline from the photos.
   */
  model_training: z.object({ ai: z.boolean() }),
  /** Credits per generation by mode (video: per second), as the staff console last set them. */
  prices: ZModePrices,
  /** Free generations a day before the pause, and the pause between generations after them. */
  free_tier: ZFreeTier,
});
export type TPublicConfig = z.infer<typeof ZPublicConfig>;
