import { z } from 'zod';
import { requiredText, withoutControlCharacters } from './fields.js';

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
  /** The Start that confirmed this sign-in made the account (false while pending). */
  created: z.boolean(),
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

/** Text from Telegram (names, usernames): kept as sent, minus control characters. */
export const ZTelegramText = z.string().transform((value) => withoutControlCharacters(value));

/** The parts of a Bot API `Update` the bot acts on; everything else is acknowledged and ignored. */
export const ZTelegramUpdate = z
  .object({
    update_id: z.number().int(),
    message: z
      .object({
        message_id: z.number().int(),
        chat: z.object({ id: z.number().int(), type: z.string() }),
        from: z
          .object({
            id: z.number().int(),
            is_bot: z.boolean().optional(),
            first_name: ZTelegramText.optional(),
            last_name: ZTelegramText.optional(),
            username: ZTelegramText.optional(),
            language_code: ZTelegramText.optional(),
          })
          .optional(),
        text: z.string().optional(),
        /** Telegram Stars: a payment made (the only moment a purchase is granted) or refunded. */
        successful_payment: z.object({}).loose().optional(),
        refunded_payment: z.object({}).loose().optional(),
      })
      .loose()
      .optional(),
    /** Telegram Stars: "may this order still be paid?", to be answered within 10 seconds. */
    pre_checkout_query: z
      .object({
        id: z.string(),
        from: z.object({ id: z.number().int(), language_code: ZTelegramText.optional() }).loose(),
        currency: z.string(),
        total_amount: z.number().int(),
        invoice_payload: z.string(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type TTelegramUpdate = z.infer<typeof ZTelegramUpdate>;
