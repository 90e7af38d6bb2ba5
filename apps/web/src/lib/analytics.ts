/**
 * A thin seam for web analytics: events go to `window.dataLayer` when a tag manager is present and
 * are always dispatched as `mirra:analytics` DOM events, so tests and integrations can listen.
 */
type AnalyticsWindow = Window & { dataLayer?: unknown[] };

export function track(event: string, params: Record<string, unknown> = {}): void {
  if (typeof window === 'undefined') return;
  (window as AnalyticsWindow).dataLayer?.push({ event, ...params });
  window.dispatchEvent(new CustomEvent('mirra:analytics', { detail: { event, ...params } }));
}

export function setAnalyticsUserId(userId: number | null): void {
  track('set_user_id', { user_id: userId });
}
