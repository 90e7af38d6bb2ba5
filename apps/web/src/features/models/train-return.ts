/** The address marker of a return from a purchase made to afford a model's training. */
export const TRAIN_MARKER = 'train';

/**
 * Where a checkout started from a training's shortfall comes back to: that model's page (its
 * photos are there, whichever page the purchase began on), which asks to train again at once.
 */
export function trainReturnPath(modelUuid: string): string {
  return `/model/${modelUuid}/?${TRAIN_MARKER}=1`;
}

/** Whether the address is such a return whose payment result was already seen (its sheet closed). */
export function isTrainReturn(params: URLSearchParams): boolean {
  return params.get(TRAIN_MARKER) === '1' && !params.has('payment');
}
