import { defineRoute } from './define-route.js';

export const verifyRoutes = {
  check: defineRoute({
    method: 'POST',
    path: '/api/verify/',
    auth: 'optional',
    tags: ['verify'],
    summary: 'Was this picture or video made by Mirra? (multipart, field `file`: JPEG, PNG, WebP or MP4)',
    description:
      'Reads the C2PA manifest when the file carries one; otherwise (or besides) looks the picture up by its perceptual hash among everything Mirra has made. Nothing uploaded is kept.',
    requestKind: 'multipart',
    response: { 200: 'ZVerifyResult' },
    errors: ['uploads.too_big', 'uploads.unsupported_type', 'common.throttled'],
  }),
};
