/**
 * The posts' and notifications' constants, apart from the zod schemas in `posts.ts` and
 * `notifications.ts`: the web app imports these values, and a module without zod keeps the schema
 * library out of its bundles (as `generation-constants.ts` does for generations).
 */
export const POST_TITLE_MAX_LENGTH = 100;
export const POST_SEARCH_MAX_LENGTH = 200;
export const POST_REPORT_COMMENT_MAX_LENGTH = 500;

/**
 * Feed tabs (the app's /posts/:type/) plus my drafts. `top` is what /posts/ and /prompts/top/ redirect
 * to; it is the recommended tab.
 */
export const POST_LIST_TYPES = ['recommended', 'new', 'saved', 'subscribed', 'drafts'] as const;

/**
 * Why a post is reported. `not_consented` ("this is me, shared without my consent") is about a
 * real person's face: the staff queue puts such reports first.
 */
export const REPORT_REASONS = [
  'not_consented',
  'nudity',
  'violence',
  'hate',
  'spam',
  'copyright',
  'other',
] as const;

/**
 * What a notification is about (spec: /notifications). Each kind fills the fields of `data` it
 * needs; the web app words it in the reader's language.
 */
export const NOTIFICATION_KINDS = [
  /** Someone subscribed to me: `user_uuid`, `user_name`. */
  'new_subscriber',
  /** A generation made from my post completed: `amount` credits, `post_uuid`, `user_uuid`, `user_name`. */
  'royalty',
  /** My digital model finished training: `model_uuid`, `model_name`. */
  'model_ready',
  /** My generation finished: `generation_uuid`, `mode`. */
  'generation_finished',
  /** My post was taken down: `post_uuid`, `reason` (`reported`, or `moderator` after a review). */
  'post_removed',
  /** Someone joined through my partner link: `user_name`. */
  'partner_joined',
  /** I earned a partner commission, frozen for the hold: `amount` (minor units), `currency`. */
  'commission_frozen',
  /** A partner commission's hold ended, the money is available: `amount`, `currency`. */
  'commission_available',
  /** My pay-out was sent: `amount`, `currency`. */
  'payout_paid',
  /** My pay-out was rejected and the money returned: `amount`, `currency`, `reason`. */
  'payout_rejected',
  /** Staff reviewed my reported post and put it back: `post_uuid`. */
  'post_restored',
  /** Premium's renewal charge failed: `attempts_left` (0: renewals stopped), `access_until`. */
  'subscription_renewal_failed',
] as const;
