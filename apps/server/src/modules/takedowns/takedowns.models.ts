import {
  TAKEDOWN_DEADLINE_HOURS,
  TAKEDOWN_NEAR_HOURS,
  URGENT_TAKEDOWN_CATEGORIES,
  type TTakedownCategory,
  type TTakedownDeadlineState,
} from '@mirra/contracts';

const HOUR_MS = 60 * 60 * 1000;

/** Urgent categories (intimate or non-consensual pictures) hide the post at once and have a deadline. */
export const isUrgentTakedown = (category: TTakedownCategory): boolean =>
  URGENT_TAKEDOWN_CATEGORIES.includes(category);

/** When a request must be answered by: TAKEDOWN_DEADLINE_HOURS after it was received, for urgent ones only. */
export function takedownDeadline(category: TTakedownCategory, receivedAt: Date): Date | null {
  return isUrgentTakedown(category)
    ? new Date(receivedAt.getTime() + TAKEDOWN_DEADLINE_HOURS * HOUR_MS)
    : null;
}

/** `missed` once past, `near` with under TAKEDOWN_NEAR_HOURS left, else `on_time`; null without a deadline. */
export function deadlineState(deadline: Date | null, now: Date): TTakedownDeadlineState | null {
  if (!deadline) return null;
  const left = deadline.getTime() - now.getTime();
  if (left <= 0) return 'missed';
  return left < TAKEDOWN_NEAR_HOURS * HOUR_MS ? 'near' : 'on_time';
}
