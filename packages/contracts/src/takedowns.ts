import { z } from 'zod';
import { optionalText, ZEmail } from './fields.js';

/**
 * What a takedown request says the picture shows. `intimate` (an intimate or sexual picture of the
 * person, shared without consent) is the kind the law gives a platform 48 hours to remove (the US
 * TAKE IT DOWN Act): it hides the post at once and is reviewed first, against its deadline.
 */
export const TAKEDOWN_CATEGORIES = ['intimate', 'my_face', 'other'] as const;
export type TTakedownCategory = (typeof TAKEDOWN_CATEGORIES)[number];

/** The categories answered within TAKEDOWN_DEADLINE_HOURS, hidden from everyone until reviewed. */
export const URGENT_TAKEDOWN_CATEGORIES: readonly TTakedownCategory[] = ['intimate'];
export const TAKEDOWN_DEADLINE_HOURS = 48;
/** A deadline this close (or past) is shown on the console home. */
export const TAKEDOWN_NEAR_HOURS = 12;
export const TAKEDOWN_DETAILS_MAX_LENGTH = 1000;

export const takedownMessages = {
  postLink: 'Paste the link to the post.',
  category: 'Choose what the picture shows.',
  noPost: 'There is no post at this link.',
} as const;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The post's id in a link to it (`…/post/<uuid>/`) or the bare id; null for anything else. */
export function postUuidFromLink(link: string): string | null {
  const text = link.trim();
  const inPath = /\/post\/([0-9a-f-]{36})(?:[/?#]|$)/i.exec(text)?.[1];
  const found = inPath ?? (new RegExp(`^${UUID.source}$`, 'i').test(text) ? text : null);
  return found && UUID.test(found) ? found.toLowerCase() : null;
}

/** A request to remove a post, from anyone, signed in or not. */
export const ZTakedownBody = z.object({
  post_url: z
    .string({ error: takedownMessages.postLink })
    .trim()
    .max(500, { error: takedownMessages.postLink })
    .refine((value) => postUuidFromLink(value) !== null, { error: takedownMessages.postLink }),
  category: z.enum(TAKEDOWN_CATEGORIES, { error: takedownMessages.category }),
  contact_email: ZEmail,
  details: optionalText(TAKEDOWN_DETAILS_MAX_LENGTH, 'multi').optional(),
});

export const ZTakedownReceipt = z.object({
  received_at: z.iso.datetime(),
  /** When the review must be done by (urgent categories); null for the others. */
  deadline_at: z.iso.datetime().nullable(),
  /** The post is hidden from everyone but its author until the review. */
  hidden: z.boolean(),
});
export type TTakedownReceipt = z.infer<typeof ZTakedownReceipt>;

/** A takedown request as staff see it in the review queue. */
export const ZAdminTakedown = z.object({
  category: z.enum(TAKEDOWN_CATEGORIES),
  contact_email: z.string(),
  details: z.string(),
  received_at: z.iso.datetime(),
  deadline_at: z.iso.datetime().nullable(),
});
export type TAdminTakedown = z.infer<typeof ZAdminTakedown>;

/** Where a deadline stands: `missed`, `near` (under TAKEDOWN_NEAR_HOURS left) or `on_time`. */
export const ZTakedownDeadlineState = z.enum(['missed', 'near', 'on_time']);
export type TTakedownDeadlineState = z.infer<typeof ZTakedownDeadlineState>;
