/** The address marker that opens a model's live check at once (the link a phone follows). */
export const LIVE_CHECK_PARAM = 'live-check';

/**
 * The same step on another device: the model's page, which opens the live check. The phone signs
 * in to the same account (the Mini App does so by itself); the page is the owner's only.
 */
export function liveCheckLink(origin: string, modelUuid: string): string {
  return `${origin}/model/${modelUuid}/?${LIVE_CHECK_PARAM}=1`;
}

export function isLiveCheckLink(params: URLSearchParams): boolean {
  return params.get(LIVE_CHECK_PARAM) === '1';
}
