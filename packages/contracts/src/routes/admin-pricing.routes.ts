import { defineRoute } from './define-route.js';

const tags = ['admin'];

/**
 * The catalogue and prices in the staff console (admins only; anyone else gets 404). A change
 * applies on every API process and worker without a restart and is written to the audit log.
 */
export const adminPricingRoutes = {
  pricing: defineRoute({
    method: 'GET',
    path: '/api/admin/pricing/',
    auth: 'required',
    staff: 'admin',
    tags,
    summary: 'Mode prices, free tier, packs and the plan in force, with the defaults and what overrides them',
    response: { 200: 'ZAdminPricing' },
  }),
  changePricing: defineRoute({
    method: 'PUT',
    path: '/api/admin/pricing/',
    auth: 'required',
    staff: 'admin',
    tags,
    summary:
      'Set mode prices, free tier, packs and the plan (values equal to the defaults follow them); applies at once, audited',
    body: 'ZAdminPricingBody',
    response: { 200: 'ZAdminPricing' },
  }),
};
