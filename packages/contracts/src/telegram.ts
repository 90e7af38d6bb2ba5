import { z } from 'zod';
import { requiredText } from './fields.js';

export const ZTelegramAuthKey = z.object({
  uuid: z.uuid(),
  /** `https://t.me/<bot>?start=<key>`: opening it and pressing Start signs the browser in. */
  link: z.string(),
  expires_in: z.number().int(),
});

export const ZTelegramTokenQuery = z.object({ uuid: z.uuid({ error: 'Enter a valid UUID.' }) });

/** While the user has not pressed Start yet, `token` is null; poll again in a second. */
export const ZTelegramTokenResponse = z.object({
  status: z.enum(['pending', 'confirmed']),
  token: z.string().nullable(),
  refresh: z.string().nullable(),
  access: z.string().nullable(),
});

export const ZSavedQueryString = z.object({ qs: z.string() });
export const ZCreateQsBody = z.object({ qs: requiredText(2000) });
export const ZCreatedQs = z.object({
  id: z.string(),
  qs: z.string(),
  /** The value to pass as the Mini App start parameter (`qs_<id>`). */
  start_param: z.string(),
});
export const ZQsQuery = z.object({ id: requiredText(64) });
