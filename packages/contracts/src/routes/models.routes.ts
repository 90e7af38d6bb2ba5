import { MODEL_PHOTOS_PER_REQUEST } from '../model-constants.js';
import { defineRoute } from './define-route.js';

const tags = ['models'];

/** The personal digital model: photos checked on upload, trained once, used by face swap. */
export const modelsRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/api/models/',
    auth: 'required',
    tags,
    summary: 'Create a digital model (then add photos and train it)',
    body: 'ZCreateModelBody',
    response: { 201: 'ZModel' },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/models/',
    auth: 'required',
    tags,
    summary: 'My digital models, newest first',
    query: 'ZCursorQuery',
    response: { 200: 'ZModelList' },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/models/:uuid/',
    auth: 'required',
    tags,
    summary: 'One of my models: status, training progress, reference count and photos with their verdicts',
    params: 'ZModelParams',
    response: { 200: 'ZModel' },
    errors: ['models.not_found'],
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/models/:uuid/',
    auth: 'required',
    tags,
    summary: 'Delete a model with all its photos (training in progress is stopped and refunded)',
    params: 'ZModelParams',
    response: { 204: 'ZNoContent' },
    errors: ['models.not_found'],
  }),
  addPhotos: defineRoute({
    method: 'POST',
    path: '/api/models/:uuid/photos/',
    auth: 'required',
    tags,
    summary: `Add photos (multipart, one or many files, up to ${MODEL_PHOTOS_PER_REQUEST}); each is checked and answered with its verdict`,
    description:
      'Checks every photo with real face analysis: exactly one face (`face.none`, `face.multiple`), large ' +
      'enough (`face.too_small`), sharp (`photo.blurry`), the same person as the other photos ' +
      '(`face.different_person`); tips that never refuse a photo: `photo.low_light`, `face.glasses`, ' +
      '`pose.front` / `pose.side`. Files that are not a readable photo get `file.*` problems and are not ' +
      'stored. Nothing is charged. Before training, earlier photos are re-judged with the new ones.',
    params: 'ZModelParams',
    requestKind: 'multipart',
    response: { 201: 'ZModelPhotosUploaded' },
    errors: [
      'models.not_found',
      'models.training_in_progress',
      'models.too_many_photos',
      'uploads.unsupported_type',
    ],
  }),
  removePhoto: defineRoute({
    method: 'DELETE',
    path: '/api/models/:uuid/photos/:photo_uuid/',
    auth: 'required',
    tags,
    summary: 'Delete one photo of a model and its files',
    params: 'ZModelPhotoParams',
    response: { 200: 'ZModel' },
    errors: ['models.not_found', 'models.photo_not_found', 'models.training_in_progress'],
  }),
  train: defineRoute({
    method: 'POST',
    path: '/api/models/:uuid/train/',
    auth: 'required',
    tags,
    summary:
      'Train the model (after a passed live check): charges PRICE_MODEL_TRAINING credits and queues training (refunded if it fails)',
    params: 'ZModelParams',
    response: { 202: 'ZModel' },
    errors: [
      'models.not_found',
      'models.not_enough_photos',
      'models.live_check_required',
      'models.consent_required',
      'models.training_in_progress',
      'models.already_trained',
      'credits.insufficient',
    ],
  }),
  liveCheck: defineRoute({
    method: 'POST',
    path: '/api/models/:uuid/live-check/',
    auth: 'required',
    tags,
    summary: 'The live check before training: three camera frames (straight, left, right), judged at once',
    description:
      'Multipart with the files `straight`, `left` and `right` (JPEG, PNG or WebP). Passes when each frame ' +
      'shows one face, the straight one looks ahead, the other two turn to opposite sides, the motion is ' +
      "a head's (not a flat picture moved: `spoof.flat`) and the face matches the model's good photos " +
      '(`face.different_person`). The frames are analysed in memory and never stored; the verdict replaces ' +
      "the model's previous one. Training (`train`) needs a passed check.",
    params: 'ZModelParams',
    requestKind: 'multipart',
    response: { 200: 'ZLiveCheckResult' },
    errors: [
      'models.not_found',
      'models.live_check_needs_photos',
      'models.training_in_progress',
      'models.already_trained',
      'models.consent_required',
      'common.throttled',
    ],
  }),
  consentLink: defineRoute({
    method: 'POST',
    path: '/api/models/:uuid/consent-link/',
    auth: 'required',
    tags,
    summary: 'A fresh consent link for a model of someone else, to send that person (signed, expiring)',
    description:
      'Only for a model created with `subject: "other"`. The person opens the link (no account needed), ' +
      'sees who asks and for what, and confirms with their own live check, which must match the photos. ' +
      'Each call signs a new link valid for MODEL_CONSENT_LINK_DAYS days; earlier links keep working until ' +
      'they expire. Withdrawing by any of them works at any time.',
    params: 'ZModelParams',
    response: { 200: 'ZConsentLink' },
    errors: ['models.not_found', 'models.consent_not_needed', 'consents.closed'],
  }),
  events: defineRoute({
    method: 'GET',
    path: '/api/models/:uuid/events/',
    auth: 'required',
    tags,
    summary: 'Server-sent events: `status` events {uuid, status, progress} until training ends',
    params: 'ZModelParams',
    replyKind: 'event-stream',
    errors: ['models.not_found'],
  }),
};

/**
 * The consent page of a model of someone else, for anyone holding its link (no account): who
 * asks, the live check that confirms, and withdrawal.
 */
export const consentsRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/consents/:token/',
    auth: 'none',
    tags: ['consents'],
    summary: 'A consent request as its link shows it: who asks, for which model, and where it stands',
    params: 'ZConsentTokenParams',
    response: { 200: 'ZConsent' },
    errors: ['consents.not_found'],
  }),
  liveCheck: defineRoute({
    method: 'POST',
    path: '/api/consents/:token/live-check/',
    auth: 'none',
    tags: ['consents'],
    summary: 'Confirm consent with a live check: three camera frames that must match the model’s photos',
    description:
      'The same check as a model’s own (`POST /api/models/:uuid/live-check/`): multipart `straight`, ' +
      '`left` and `right`. A passed check confirms the consent and lets the owner train the model.',
    params: 'ZConsentTokenParams',
    requestKind: 'multipart',
    response: { 200: 'ZConsentCheckResult' },
    errors: [
      'consents.not_found',
      'consents.expired',
      'consents.closed',
      'models.live_check_needs_photos',
      'models.training_in_progress',
      'models.already_trained',
      'common.throttled',
    ],
  }),
  withdraw: defineRoute({
    method: 'POST',
    path: '/api/consents/:token/withdraw/',
    auth: 'none',
    tags: ['consents'],
    summary:
      'Withdraw (or refuse) consent for good: the model is deleted and every post made with it is taken down',
    params: 'ZConsentTokenParams',
    response: { 200: 'ZConsent' },
    errors: ['consents.not_found'],
  }),
};
