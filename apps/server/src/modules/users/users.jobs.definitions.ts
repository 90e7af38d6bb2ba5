import { z } from 'zod';
import { defineJob } from '../../shared/jobs.js';

/**
 * Emails are composed when the job runs, not when it is added: the link's token is never stored
 * in the job table, and a retried job sends a link that is valid from the moment it is sent.
 */
export const sendActivationEmailJob = defineJob({
  name: 'users:send_activation_email',
  payload: z.object({ userId: z.number().int() }),
  maxAttempts: 10,
});

export const sendPasswordResetEmailJob = defineJob({
  name: 'users:send_password_reset_email',
  payload: z.object({ userId: z.number().int() }),
  maxAttempts: 10,
});

/**
 * Someone joined through a partner's link: the partner programme tells the partner (in the app,
 * and through the bot when allowed). Added in the transaction that created the account.
 */
export const announceNewPartnerJob = defineJob({
  name: 'partners:announce_new_partner',
  payload: z.object({ userId: z.number().int() }),
  maxAttempts: 5,
});

/** A deleted account's files: added in the deletion's transaction, retried until every prefix is gone. */
export const purgeDeletedAccountFilesJob = defineJob({
  name: 'users:purge_deleted_account_files',
  payload: z.object({ userId: z.number().int() }),
  maxAttempts: 25,
});

/** Every job this module defines; the worker refuses to start while one has no handler. */
export const usersJobDefinitions = [
  sendActivationEmailJob,
  sendPasswordResetEmailJob,
  announceNewPartnerJob,
  purgeDeletedAccountFilesJob,
] as const;
