import type { z } from 'zod';
import type {
  TPublicUser,
  TSignInPair,
  TUser,
  ZProfileUpdateBody,
  ZRegisterBody,
  ZResetPasswordConfirmBody,
  ZSetPasswordBody,
  ZUidTokenBody,
} from '@mirra/contracts';
import { isLanguage } from '@mirra/contracts';
import type { UsersDeps } from './users.deps.js';
import type { DbOrTx } from '../../shared/db/client.js';
import { AppError, fieldError } from '../../shared/errors.js';
import { addJob } from '../../shared/jobs.js';
import {
  decodeUid,
  isAccountTokenValid,
  type AccountLinkPurpose,
  hashPassword,
  verifyPassword,
  findPasswordProblems,
  issueSession,
  revokeUserSessions,
} from '../auth/index.js';
import {
  generateReferralCode,
  knownAddressKey,
  loginLimits,
  normaliseReferralCode,
  splitUserRefs,
} from './users.models.js';
import { usersRepository, type NewUserRow, type UserRow } from './users.repository.js';
import { toPublicUserJson, toUserJson } from './users.serializers.js';
import {
  announceNewPartnerJob,
  sendActivationEmailJob,
  sendPasswordResetEmailJob,
} from './users.jobs.definitions.js';
import { grantWelcomeCredits } from '../credits/index.js';

const UNIQUE_VIOLATION = '23505';
const isUniqueViolation = (error: unknown, constraint?: string) => {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pgError = e.code ? e : e.cause;
  return pgError?.code === UNIQUE_VIOLATION && (!constraint || pgError.constraint === constraint);
};

/**
 * Inserts a user with a fresh referral code, resolving `referralCode` to the referer. Every way of
 * creating an account (email, Google, Telegram) goes through here, so each gets a reflink.
 */
export async function createUser(
  db: DbOrTx,
  values: Omit<NewUserRow, 'referralCode' | 'refererId'>,
  referralCode?: string | null,
  options: { welcomeCredits?: number } = {},
): Promise<UserRow> {
  const code = normaliseReferralCode(referralCode);
  const referer = code ? await usersRepository.findByReferralCode(db, code) : undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      // A savepoint, so a (vanishingly rare) code collision does not abort the caller's transaction.
      return await (db as Parameters<Parameters<UsersDeps['db']['transaction']>[0]>[0]).transaction(
        async (sp) => {
          const user = await usersRepository.insert(sp, {
            ...values,
            referralCode: generateReferralCode(),
            refererId: referer?.id,
          });
          await grantWelcomeCredits(sp, user.id, options.welcomeCredits ?? 0);
          if (user.refererId) await addJob(sp, announceNewPartnerJob, { userId: user.id });
          return user;
        },
      );
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error, 'users_referral_code_unique')) continue;
      throw error;
    }
  }
}

function passwordErrors(
  password: string,
  user: { email?: string | null; firstName?: string | null; lastName?: string | null },
) {
  return findPasswordProblems(password, user);
}

export async function registerUser(
  deps: UsersDeps,
  body: z.output<typeof ZRegisterBody>,
  context: { ip: string; language: string },
): Promise<{ id: number; uuid: string; email: string }> {
  const { rateLimits } = deps.config;
  await deps.rateLimiter.hit([
    {
      key: `register:ip:${context.ip}`,
      limit: rateLimits.registerPerIp,
      windowSeconds: rateLimits.windowSeconds,
    },
  ]);
  const problems = passwordErrors(body.password, body);
  if (problems.length) throw fieldError('common.validation', { password: problems });
  if (await usersRepository.findByEmail(deps.db, body.email)) throw emailTaken();
  const passwordHash = await hashPassword(body.password);
  const language = isLanguage(body.language) ? body.language : context.language;
  try {
    return await deps.db.transaction(async (tx) => {
      const user = await createUser(
        tx,
        {
          email: body.email,
          passwordHash,
          isActive: false,
          firstName: body.firstName ?? '',
          lastName: body.lastName ?? '',
          language,
        },
        body.referral_code,
        { welcomeCredits: deps.config.welcomeCredits },
      );
      await addJob(tx, sendActivationEmailJob, { userId: user.id });
      return { id: user.id, uuid: user.uuid, email: body.email };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_unique')) throw emailTaken();
    throw error;
  }
}

const emailTaken = () =>
  fieldError('users.email_taken', { email: ['user with this email address already exists.'] });

/** Finds the user a `{uid, token}` link names, or throws the field error djoser gives. */
async function userFromLink(
  deps: UsersDeps,
  purpose: AccountLinkPurpose,
  body: z.output<typeof ZUidTokenBody>,
  invalidCode: 'users.activation_invalid' | 'users.reset_invalid',
): Promise<UserRow> {
  const id = decodeUid(body.uid);
  const user = id ? await usersRepository.findById(deps.db, id) : undefined;
  if (!user) throw fieldError(invalidCode, { uid: ["Invalid user id or user doesn't exist."] });
  if (purpose === 'activation' && user.isActive) throw staleActivation();
  const maxAge =
    purpose === 'activation' ? deps.config.tokens.activationSeconds : deps.config.tokens.passwordResetSeconds;
  if (!isAccountTokenValid(deps.linkSecret, purpose, user, body.token, deps.now(), maxAge)) {
    throw fieldError(invalidCode, { token: ['Invalid token for given user.'] });
  }
  return user;
}

/**
 * Activates the account a valid link names and signs its owner in (a new session family, as a
 * password sign-in opens). Only the request that flips the account to active gets tokens: a second
 * use of the link, even one racing the first, is refused as stale.
 */
export async function activateUser(
  deps: UsersDeps,
  body: z.output<typeof ZUidTokenBody>,
): Promise<TSignInPair> {
  const user = await userFromLink(deps, 'activation', body, 'users.activation_invalid');
  return deps.db.transaction(async (tx) => {
    const activated = await usersRepository.activate(tx, user.id, deps.now());
    if (!activated) throw staleActivation();
    // An e-mail account starts here: the sign-up only asked for it, the link makes it usable.
    return { ...(await issueSession(deps, tx, user.id)), created: true };
  });
}

const staleActivation = () =>
  new AppError({ code: 'users.activation_stale', detail: 'Stale token for given user.' });

/** Resends the activation email; answers the same whether or not the email is registered. */
export async function resendActivation(deps: UsersDeps, email: string, ip: string): Promise<void> {
  await hitEmailLimits(deps, 'resend', email, ip);
  const user = await usersRepository.findByEmail(deps.db, email);
  if (!user || user.isActive) return;
  await addJob(deps.db, sendActivationEmailJob, { userId: user.id }, { jobKey: `activation:${user.id}` });
}

/** Sends a reset link if the account exists and is active; the answer never tells which. */
export async function requestPasswordReset(deps: UsersDeps, email: string, ip: string): Promise<void> {
  await hitEmailLimits(deps, 'reset', email, ip);
  const user = await usersRepository.findByEmail(deps.db, email);
  if (!user || !user.isActive) return;
  await addJob(deps.db, sendPasswordResetEmailJob, { userId: user.id }, { jobKey: `reset:${user.id}` });
}

function hitEmailLimits(deps: UsersDeps, action: string, email: string, ip: string) {
  const { rateLimits } = deps.config;
  return deps.rateLimiter.hit([
    { key: `${action}:ip:${ip}`, limit: rateLimits.emailPerIp, windowSeconds: rateLimits.windowSeconds },
    {
      key: `${action}:email:${email}`,
      limit: rateLimits.emailPerAddress,
      windowSeconds: rateLimits.windowSeconds,
    },
  ]);
}

/** Sets a new password from a reset link. The link then stops working, and every session ends. */
export async function confirmPasswordReset(
  deps: UsersDeps,
  body: z.output<typeof ZResetPasswordConfirmBody>,
): Promise<void> {
  const user = await userFromLink(deps, 'password_reset', body, 'users.reset_invalid');
  const problems = passwordErrors(body.new_password, user);
  if (problems.length) throw fieldError('common.validation', { new_password: problems });
  const passwordHash = await hashPassword(body.new_password);
  await deps.db.transaction(async (tx) => {
    await usersRepository.update(tx, user.id, deps.now(), { passwordHash, lastLogin: deps.now() });
    await revokeUserSessions(tx, user.id, 'password_reset', deps.now());
  });
  deps.sessionCache.forgetUser(user.id);
}

/** Changes the password; other sessions end, the one asking stays signed in. */
export async function setPassword(
  deps: UsersDeps,
  user: UserRow,
  familyId: string | null,
  body: z.output<typeof ZSetPasswordBody>,
): Promise<void> {
  if (!(await checkCurrentPassword(deps, user, body.current_password))) {
    throw fieldError('users.current_password_invalid', { current_password: ['Invalid password.'] });
  }
  const problems = passwordErrors(body.new_password, user);
  if (problems.length) throw fieldError('common.validation', { new_password: problems });
  const passwordHash = await hashPassword(body.new_password);
  await deps.db.transaction(async (tx) => {
    await usersRepository.update(tx, user.id, deps.now(), { passwordHash });
    await revokeUserSessions(tx, user.id, 'password_change', deps.now(), familyId ?? undefined);
  });
  deps.sessionCache.forgetUser(user.id);
}

/**
 * Signs in with email and password. Guessing is limited three ways, none of which lets someone
 * elsewhere lock the owner out: attempts from one address (any emails), attempts on one email
 * from one address, and failed attempts on one account from everywhere together — which then
 * refuses only addresses the account has never signed in from, so its owner's usual places
 * still get in (a new place can reset the password by email).
 */
export async function loginWithPassword(
  deps: UsersDeps,
  credentials: { email: string; password: string },
  ip: string,
): Promise<TSignInPair> {
  const limits = loginLimits(deps.config.rateLimits, credentials.email, ip);
  await deps.rateLimiter.hit([limits.perAddress, limits.perEmailAndAddress]);
  const user = await usersRepository.findByEmail(deps.db, credentials.email);
  const isKnownAddress = user ? await deps.rateLimiter.isRemembered(knownAddressKey(user.id, ip)) : false;
  if (!isKnownAddress) await deps.rateLimiter.check([limits.failuresPerAccount]);
  const isPasswordRight = await verifyPassword(user?.passwordHash, credentials.password);
  if (!user || !isPasswordRight || !user.isActive) {
    await deps.rateLimiter.count([limits.failuresPerAccount]);
    throw new AppError({
      code: 'auth.invalid_credentials',
      detail: 'No active account found with the given credentials',
    });
  }
  await deps.rateLimiter.remember(knownAddressKey(user.id, ip));
  return deps.db.transaction(async (tx) => {
    await usersRepository.update(tx, user.id, deps.now(), { lastLogin: deps.now() });
    // A password only opens an account its activation link made.
    return { ...(await issueSession(deps, tx, user.id)), created: false };
  });
}

/**
 * Checks a signed-in person's current password (changing it, deleting the account): a stolen
 * session must not be able to guess it, so the checks per account are limited.
 */
export async function checkCurrentPassword(
  deps: Pick<UsersDeps, 'config' | 'rateLimiter'>,
  user: { id: number; passwordHash: string | null },
  password: string,
): Promise<boolean> {
  const { rateLimits } = deps.config;
  await deps.rateLimiter.hit([
    {
      key: `password-check:user:${user.id}`,
      limit: rateLimits.passwordCheckPerUser,
      windowSeconds: rateLimits.windowSeconds,
    },
  ]);
  return verifyPassword(user.passwordHash, password);
}

export async function updateProfile(
  deps: UsersDeps,
  user: UserRow,
  body: z.output<typeof ZProfileUpdateBody>,
): Promise<TUser> {
  const changes = Object.fromEntries(
    Object.entries(body).filter(([, value]) => value !== undefined),
  ) as Partial<NewUserRow>;
  if (changes.username && changes.username.toLowerCase() !== user.username.toLowerCase()) {
    const holder = await usersRepository.findByUsername(deps.db, changes.username);
    if (holder && holder.id !== user.id) throw usernameTaken();
  }
  try {
    const updated = await usersRepository.update(deps.db, user.id, deps.now(), changes);
    deps.sessionCache.forgetUser(user.id);
    return toUserJson(updated, deps.config.publicUrl);
  } catch (error) {
    if (isUniqueViolation(error, 'users_username_unique')) throw usernameTaken();
    throw error;
  }
}

const usernameTaken = () =>
  fieldError('users.username_taken', { username: ['A user with that username already exists.'] });

export async function findPublicUser(
  deps: UsersDeps,
  viewerId: number,
  ref: number | string,
): Promise<TPublicUser> {
  const [user] = await findPublicUsers(deps, viewerId, [ref]);
  if (!user) throw new AppError({ code: 'users.not_found', detail: 'Not found.' });
  return user;
}

/** Public profiles for ids or uuids, in the order asked, unknown ones left out. */
export async function findPublicUsers(
  deps: UsersDeps,
  viewerId: number,
  refs: Array<number | string>,
): Promise<TPublicUser[]> {
  const { ids, uuids } = splitUserRefs(refs);
  const rows = await usersRepository.findManyByRefs(deps.db, ids, uuids);
  const byRef = new Map<string, UserRow>();
  for (const row of rows) {
    byRef.set(String(row.id), row);
    byRef.set(row.uuid, row);
  }
  const seen = new Set<number>();
  const result: TPublicUser[] = [];
  for (const ref of refs) {
    const row = byRef.get(typeof ref === 'number' ? String(ref) : ref.toLowerCase());
    if (row && !seen.has(row.id) && row.isActive) {
      seen.add(row.id);
      result.push(toPublicUserJson(row, viewerId));
    }
  }
  return result;
}
