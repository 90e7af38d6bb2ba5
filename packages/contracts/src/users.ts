import { z } from 'zod';
import { ZEmail, ZPasswordInput, fieldMessages, optionalText, requiredText } from './fields.js';

export const ZUser = z.object({
  id: z.number().int(),
  uuid: z.uuid(),
  email: z.string().nullable(),
  /** True when the user has a trained digital model. */
  lora: z.boolean(),
  /** The user's full referral link; registering through it records them as the referer. */
  reflink: z.string(),
  referral_code: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string(),
  phone: z.string(),
  instagram: z.string(),
  /** Id of the user who referred this one, if any. */
  referer: z.number().int().nullable(),
  /** True once the account can sign in with email and password (Telegram-only accounts cannot). */
  registered: z.boolean(),
  date_joined: z.iso.datetime(),
  language: z.string().nullable(),
  telegram_linked: z.boolean(),
  telegram_username: z.string().nullable(),
  /** Whether the Telegram bot may message this user (they allowed it in the Mini App or started the bot). */
  telegram_allows_write: z.boolean(),
  google_linked: z.boolean(),
});
export type TUser = z.infer<typeof ZUser>;

/**
 * What anyone signed in may see of another user — what their profile page shows: name, handle and
 * since when. Nothing private (email, phone, linked accounts), and not whether they have a digital
 * model or their Instagram: `instagram` and `lora` are there only when the record is the caller's own.
 */
export const ZPublicUser = z.object({
  id: z.number().int(),
  uuid: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string(),
  date_joined: z.iso.datetime(),
  /** Only on the caller's own record. */
  instagram: z.string().optional(),
  /** Only on the caller's own record. */
  lora: z.boolean().optional(),
});
export type TPublicUser = z.infer<typeof ZPublicUser>;

export const ZRegisterBody = z.object({
  email: ZEmail,
  password: ZPasswordInput,
  firstName: optionalText(150).optional(),
  lastName: optionalText(150).optional(),
  /** The referral code from a partner's reflink (`?ref=`); unknown codes are ignored. */
  referral_code: z.string().trim().max(64).nullish(),
  /** Preferred interface language, used for the activation email. */
  language: z.string().max(8).nullish(),
});
export type TRegisterBody = z.input<typeof ZRegisterBody>;

export const ZRegisterResponse = z.object({ id: z.number().int(), uuid: z.uuid(), email: z.string() });

export const ZUidTokenBody = z.object({
  uid: requiredText(64),
  token: requiredText(128),
});
export const ZEmailBody = z.object({ email: ZEmail });
export const ZResetPasswordConfirmBody = ZUidTokenBody.extend({ new_password: ZPasswordInput });
export const ZSetPasswordBody = z.object({
  new_password: ZPasswordInput,
  current_password: ZPasswordInput,
});

/** What becomes of a deleting account's published posts: kept without the author's name, or deleted. */
export const ACCOUNT_POST_CHOICES = ['anonymise', 'delete'] as const;
export type AccountPostChoice = (typeof ACCOUNT_POST_CHOICES)[number];

/**
 * Deleting one's own account. An account with a password confirms with it; one signed in only
 * through Telegram or Google has none, and its live session is the proof.
 */
export const ZDeleteAccountBody = z.object({
  posts: z.enum(ACCOUNT_POST_CHOICES),
  current_password: z.string().max(128).optional(),
});
export type TDeleteAccountBody = z.input<typeof ZDeleteAccountBody>;

/** A short-lived link to download everything Mirra holds about me (JSON and my files, one ZIP). */
export const ZAccountExportLink = z.object({ url: z.string(), expires_at: z.string() });
export const ZAccountExportQuery = z.object({ key: z.string().min(1).max(200) });

const usernamePattern = /^[A-Za-z0-9_.]{3,32}$/;
const phonePattern = /^\+?[0-9][0-9 ()-]{4,23}$/;
const instagramPattern = /^@?[A-Za-z0-9._]{1,30}$/;

/** Profile fields a user edits on /profile-edit/. Missing fields stay as they are. */
export const ZProfileUpdateBody = z.object({
  firstName: optionalText(150).optional(),
  lastName: optionalText(150).optional(),
  username: optionalText(32)
    .refine((v) => v === '' || usernamePattern.test(v), {
      error: 'Use 3 to 32 letters, digits, dots or underscores.',
    })
    .optional(),
  phone: optionalText(24)
    .refine((v) => v === '' || phonePattern.test(v), { error: 'Enter a valid phone number.' })
    .optional(),
  instagram: optionalText(31)
    .refine((v) => v === '' || instagramPattern.test(v), {
      error: 'Enter a valid Instagram username.',
    })
    .optional(),
  language: z.enum(['ru', 'en', 'de', 'uk', 'kk', 'az']).optional(),
});
export type TProfileUpdateBody = z.input<typeof ZProfileUpdateBody>;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A user named by numeric id or by uuid; ids become numbers, uuids stay strings. */
const ZUserRef = z
  .string()
  .trim()
  .refine((v) => /^[1-9]\d{0,14}$/.test(v) || uuidPattern.test(v), { error: 'Enter a user id or uuid.' })
  .transform((v) => (/^\d+$/.test(v) ? Number(v) : v.toLowerCase()));
export type TUserRef = z.infer<typeof ZUserRef>;

export const ZByIdQuery = z.object({
  id: z.string({ error: fieldMessages.required }).pipe(ZUserRef),
});
/** `?id[]=1&id[]=2`; a single value arrives as a string, so it is wrapped. */
export const ZPublicUserList = z.array(ZPublicUser);

export const ZByIdsQuery = z.object({
  'id[]': z
    .union([z.string(), z.array(z.string())], { error: fieldMessages.required })
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .pipe(z.array(ZUserRef).min(1).max(100, { error: 'Ask for at most 100 users at once.' })),
});

export const ZGeo = z.object({
  /** ISO 3166-1 alpha-2 country of the caller, or null when it cannot be told (e.g. localhost). */
  country_iso: z.string().length(2).nullable(),
});
