import type { UsersDeps } from './users.deps.js';
import { toTask } from '../../shared/jobs.js';
import { translate } from '../../shared/i18n/messages.js';
import { encodeUid, makeAccountToken } from '../auth/index.js';
import { usersRepository, type UserRow } from './users.repository.js';
import {
  purgeDeletedAccountFilesJob,
  sendActivationEmailJob,
  sendPasswordResetEmailJob,
} from './users.jobs.definitions.js';
import { purgeDeletedAccountFiles } from './account-deletion.usecases.js';

const greetingName = (user: UserRow) => (user.firstName ? `, ${user.firstName}` : '');

export function usersJobHandlers(deps: UsersDeps) {
  const { config } = deps;
  return {
    [sendActivationEmailJob.name]: toTask(sendActivationEmailJob, async ({ userId }) => {
      const user = await usersRepository.findById(deps.db, userId);
      if (!user || user.isActive || !user.email) return;
      const token = makeAccountToken(deps.linkSecret, 'activation', user, deps.now());
      const link = `${config.publicUrl}/activate/${encodeUid(user.id)}/${token}`;
      await deps.mailer.send({
        to: user.email,
        subject: translate(user.language, 'email.activation.subject'),
        text: translate(user.language, 'email.activation.body', {
          name: greetingName(user),
          link,
          days: Math.round(config.tokens.activationSeconds / 86400),
        }),
      });
    }),
    [sendPasswordResetEmailJob.name]: toTask(sendPasswordResetEmailJob, async ({ userId }) => {
      const user = await usersRepository.findById(deps.db, userId);
      if (!user || !user.isActive || !user.email) return;
      const token = makeAccountToken(deps.linkSecret, 'password_reset', user, deps.now());
      const link = `${config.publicUrl}/reset-pass/${encodeUid(user.id)}/${token}`;
      await deps.mailer.send({
        to: user.email,
        subject: translate(user.language, 'email.reset.subject'),
        text: translate(user.language, 'email.reset.body', {
          name: greetingName(user),
          link,
          hours: Math.round(config.tokens.passwordResetSeconds / 3600),
        }),
      });
    }),
    [purgeDeletedAccountFilesJob.name]: toTask(purgeDeletedAccountFilesJob, ({ userId }) =>
      purgeDeletedAccountFiles(deps, userId),
    ),
  };
}
