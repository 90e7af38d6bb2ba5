import type { z } from 'zod';
import { routes, type TTakedownReceipt, type ZTakedownBody } from '@mirra/contracts';
import { api } from '../../lib/api-client';

export type TTakedownBody = z.input<typeof ZTakedownBody>;

/** Sends a takedown request (signed in or not). */
export function requestTakedown(body: TTakedownBody): Promise<TTakedownReceipt> {
  return api(routes.takedowns.request, { body });
}
