import { defineRoute } from './define-route.js';

const tags = ['generations'];

const IDEMPOTENCY_NOTE =
  'Send an `Idempotency-Key` header (8–128 letters, digits, "-" or "_"; a UUID fits) to make a resend ' +
  'safe: the same key again returns the generation the first request made, charged once. The same key ' +
  'with other inputs answers 422 `generations.idempotency_key_reused`; a malformed key 400 ' +
  '`generations.idempotency_key_invalid`.';

const startErrors = [
  'credits.insufficient',
  'generations.rate_limited',
  'generations.idempotency_key_reused',
  'generations.idempotency_key_invalid',
  'generations.prompt_moderated',
  'generations.prompt_not_english',
  'generations.image_required',
  'generations.mode_unavailable',
  'generations.model_required',
  'generations.model_unavailable',
] as const;

/** Generations: prices, starting, listing and following one to its end. */
export const generationsRoutes = {
  price: defineRoute({
    method: 'GET',
    path: '/api/generations/price/',
    auth: 'optional',
    tags,
    summary: 'What a generation costs, my balance, and any free-tier wait',
    query: 'ZPriceQuery',
    response: { 200: 'ZPrice' },
    errors: ['generations.mode_unavailable'],
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/generations/',
    auth: 'required',
    tags,
    summary: 'Start a generation (charged now, refunded if it fails)',
    description: IDEMPOTENCY_NOTE,
    body: 'ZCreateGenerationBody',
    response: { 201: 'ZGeneration' },
    errors: [...startErrors, 'uploads.not_found', 'posts.not_found'],
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/generations/',
    auth: 'required',
    tags,
    summary: 'My generations, newest first (or the pictures of one run, in their order)',
    query: 'ZGenerationListQuery',
    response: { 200: 'ZGenerationList' },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/generations/:uuid/',
    auth: 'required',
    tags,
    summary: 'One of my generations, with its result when completed',
    params: 'ZUuidParams',
    response: { 200: 'ZGeneration' },
    errors: ['generations.not_found'],
  }),
  repeat: defineRoute({
    method: 'POST',
    path: '/api/generations/:uuid/repeat/',
    auth: 'required',
    tags,
    summary: 'Run a generation again with the same settings and seed',
    description: IDEMPOTENCY_NOTE,
    params: 'ZUuidParams',
    response: { 201: 'ZGeneration' },
    errors: ['generations.not_found', ...startErrors],
  }),
  useResult: defineRoute({
    method: 'POST',
    path: '/api/generations/:uuid/use_result/',
    auth: 'required',
    tags,
    summary:
      'Copy the picture of one of my completed generations into my uploads, to start a new generation from it (the same upload each time)',
    description:
      'The server copies the stored file, so the browser never downloads the result to upload it again ' +
      '(no cross-origin fetch from an S3 store). A generation that is not completed or whose result is a ' +
      'video answers 404 `generations.not_found`.',
    params: 'ZUuidParams',
    response: { 201: 'ZUpload' },
    errors: ['generations.not_found'],
  }),
  events: defineRoute({
    method: 'GET',
    path: '/api/generations/:uuid/events/',
    auth: 'required',
    tags,
    summary: 'Server-sent events: `status` events {uuid, status, progress} until the generation ends',
    params: 'ZUuidParams',
    replyKind: 'event-stream',
    errors: ['generations.not_found'],
  }),
};

/** The prompt helper: wishes in any interface language → an English prompt. */
export const promptHelperRoutes = {
  write: defineRoute({
    method: 'POST',
    path: '/api/prompt-helper/',
    auth: 'required',
    tags,
    summary: 'Write an English prompt from a wish in any of the six languages',
    body: 'ZPromptHelperBody',
    response: { 200: 'ZPromptHelperResult' },
    errors: ['common.throttled'],
  }),
};

/** Credits: the balance and its ledger. */
export const creditsRoutes = {
  balance: defineRoute({
    method: 'GET',
    path: '/api/credits/',
    auth: 'required',
    tags: ['credits'],
    summary: 'My credit balance',
    response: { 200: 'ZCreditBalance' },
  }),
  history: defineRoute({
    method: 'GET',
    path: '/api/credits/history/',
    auth: 'required',
    tags: ['credits'],
    summary: 'My credit entries, newest first',
    query: 'ZCursorQuery',
    response: { 200: 'ZCreditHistory' },
  }),
};

/** Photos for editing, styling and face swap: private to their owner, served by signed URLs. */
export const uploadsRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/api/uploads/',
    auth: 'required',
    tags: ['uploads'],
    summary: 'Upload a photo (multipart, field `file`: JPEG, PNG, WebP or HEIC)',
    requestKind: 'multipart',
    response: { 201: 'ZUpload' },
    errors: ['uploads.too_big', 'uploads.unsupported_type', 'uploads.too_many_pixels', 'common.throttled'],
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/uploads/:uuid/',
    auth: 'required',
    tags: ['uploads'],
    summary: 'One of my uploads',
    params: 'ZUploadParams',
    response: { 200: 'ZUpload' },
    errors: ['uploads.not_found'],
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/uploads/:uuid/',
    auth: 'required',
    tags: ['uploads'],
    summary: 'Delete one of my uploads and its file',
    params: 'ZUploadParams',
    response: { 204: 'ZNoContent' },
    errors: ['uploads.not_found'],
  }),
};

/** Stored files behind signed URLs. */
export const mediaRoutes = {
  file: defineRoute({
    method: 'GET',
    path: '/api/media/*',
    auth: 'none',
    tags: ['media'],
    summary:
      'A stored file by its signed URL (byte ranges, 304 for a copy already held); with S3 storage a 302 to the store’s presigned URL',
    hidden: true,
    query: 'ZMediaQuery',
    replyKind: 'binary',
    errors: ['common.not_found'],
  }),
};
