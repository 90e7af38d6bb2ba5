import { AppError } from '../../shared/errors.js';

export const postNotFound = () => new AppError({ code: 'posts.not_found', detail: 'Not found.' });

export const postAlreadyExists = (postUuid: string) =>
  new AppError({
    code: 'posts.already_exists',
    detail: 'This result is already posted.',
    extra: { post_uuid: postUuid },
  });

export const postNotPublishable = () =>
  new AppError({
    code: 'posts.not_publishable',
    detail: 'Only completed picture results can be published.',
  });

export const postResultModerated = () =>
  new AppError({
    code: 'posts.result_moderated',
    detail: 'Moderation failed: this picture cannot be published.',
  });

export const postTitleModerated = () =>
  new AppError({
    code: 'posts.title_moderated',
    fields: { title: ['Moderation failed: this title is not allowed.'] },
  });

export const postUnderReview = () =>
  new AppError({
    code: 'posts.under_review',
    detail: 'This post was reported and waits for review.',
  });

export const cannotSubscribeToSelf = () =>
  new AppError({ code: 'users.cannot_subscribe_self', detail: 'You cannot subscribe to yourself.' });

export const postConsentWithdrawn = () =>
  new AppError({
    code: 'posts.consent_withdrawn',
    detail: 'The person in this picture withdrew their consent: it cannot be published.',
  });
