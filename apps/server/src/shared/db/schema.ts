/**
 * The schema index: every table, each declared in the module that owns it (`<module>.tables.ts`;
 * tables of shared plumbing in shared.tables.ts). drizzle-kit, migrations and tests read this;
 * a module imports its own tables file, never this index.
 */
export * from '../../modules/users/users.tables.js';
export * from '../../modules/auth/auth.tables.js';
export * from './shared.tables.js';
export * from '../../modules/telegram/telegram.tables.js';
export * from '../../modules/qs/qs.tables.js';
export * from '../../modules/credits/credits.tables.js';
export * from '../../modules/posts/posts.tables.js';
export * from '../../modules/partners/partners.tables.js';
export * from '../../modules/payments/payments.tables.js';
export * from '../../modules/uploads/uploads.tables.js';
export * from '../../modules/generations/generations.tables.js';
export * from '../../modules/notifications/notifications.tables.js';
export * from '../../modules/models/models.tables.js';
export * from '../../modules/social/social.tables.js';
export * from '../../modules/admin/admin.tables.js';
export * from '../../modules/wallet/wallet.tables.js';
export * from '../../modules/subscriptions/subscriptions.tables.js';
export * from '../../modules/pricing/pricing.tables.js';
export * from '../../modules/provenance/provenance.tables.js';
export * from '../../modules/takedowns/takedowns.tables.js';
export * from '../../modules/photo-packs/photo-packs.tables.js';
