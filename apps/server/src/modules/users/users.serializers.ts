import type { TPublicUser, TUser } from '@mirra/contracts';
import type { UserRow } from './users.repository.js';

/** The full user, for the user themselves (GET /api/users/me/). */
export function toUserJson(user: UserRow, publicUrl: string): TUser {
  return {
    id: user.id,
    uuid: user.uuid,
    email: user.email,
    lora: user.hasLora,
    reflink: referralLink(publicUrl, user.referralCode),
    referral_code: user.referralCode,
    firstName: user.firstName,
    lastName: user.lastName,
    username: user.username,
    phone: user.phone,
    instagram: user.instagram,
    referer: user.refererId,
    registered: user.email !== null && user.passwordHash !== null,
    date_joined: user.dateJoined.toISOString(),
    language: user.language,
    telegram_linked: user.telegramId !== null,
    telegram_username: user.telegramUsername,
    telegram_allows_write: user.telegramAllowsWrite,
    google_linked: user.googleSub !== null,
  };
}

/**
 * What another signed-in user may see — what the profile page shows; no email, phone, ids of linked
 * accounts or referer. Instagram and whether a digital model exists only on the viewer's own record.
 */
export function toPublicUserJson(user: UserRow, viewerId: number): TPublicUser {
  const json: TPublicUser = {
    id: user.id,
    uuid: user.uuid,
    firstName: user.firstName,
    lastName: user.lastName,
    username: user.username,
    date_joined: user.dateJoined.toISOString(),
  };
  return user.id === viewerId ? { ...json, instagram: user.instagram, lora: user.hasLora } : json;
}

export function referralLink(publicUrl: string, code: string): string {
  return `${publicUrl}/sign-up/?ref=${encodeURIComponent(code)}`;
}
