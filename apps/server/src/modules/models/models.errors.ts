import { AppError } from '../../shared/errors.js';

/** The models module's own errors. */

export const modelNotFound = () => new AppError({ code: 'models.not_found', detail: 'Not found.' });

export const trainingInProgress = () =>
  new AppError({
    code: 'models.training_in_progress',
    detail: 'The model is training. Its photos can change again when it finishes.',
  });

export const consentRequired = (reason: 'missing' | 'outdated') =>
  new AppError({
    code: 'models.consent_required',
    detail:
      reason === 'outdated'
        ? "The model's photos changed since its person confirmed. Send them the consent link again: they confirm with a new live check."
        : 'This model is of someone else: it trains once that person confirms through the consent link with their own live check.',
    extra: { reason },
  });
