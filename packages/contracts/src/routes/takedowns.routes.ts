import { defineRoute } from './define-route.js';

export const takedownsRoutes = {
  request: defineRoute({
    method: 'POST',
    path: '/api/takedowns/',
    auth: 'optional',
    tags: ['takedowns'],
    summary: 'Ask for a post to be removed (anyone, signed in or not)',
    description:
      'An intimate or non-consensual picture is hidden from everyone but its author at once and reviewed within 48 hours; other requests join the staff review queue. Removal deletes every copy and refuses the picture as an upload from then on.',
    body: 'ZTakedownBody',
    response: { 201: 'ZTakedownReceipt' },
    errors: ['common.throttled'],
  }),
};
