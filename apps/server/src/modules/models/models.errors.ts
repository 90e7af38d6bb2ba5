import { AppError } from '../../shared/errors.js';

/** The models module's own errors. */

export const modelNotFound = () => new AppError({ code: 'models.not_found', detail: 'Not found.' });

export const trainingInProgress = () =>
  new AppError({
    code: 'models.training_in_progress',
    detail: 'The model is training. Its photos can change again when it finishes.',
  });
