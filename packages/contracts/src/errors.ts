import { z } from 'zod';

/**
 * Every error the API can answer with carries one of these stable codes beside the DRF-shaped
 * body, so the web app can translate it. Format: `feature.snake_reason`.
 */
export const errorCodes = {
  /** The request body or query failed validation; field errors are in the body. */
  'common.validation': 400,
  /** The body is not parseable JSON. */
  'common.malformed_json': 400,
  /** The content type is not one this route accepts. */
  'common.unsupported_media_type': 415,
  /** Text the database cannot store (a byte sequence invalid in UTF-8, a NUL character). */
  'common.invalid_text': 400,
  /** The body is larger than the server accepts. */
  'common.payload_too_large': 413,
  'common.not_found': 404,
  'common.method_not_allowed': 405,
  /** Too many attempts; `Retry-After` says when to try again. */
  'common.throttled': 429,
  /** Something broke on our side; the detail never says what. */
  'common.internal': 500,
  /**
   * A store the request needs is out of order for now (the database unreachable, the disk full or
   * read-only, the bucket refusing writes); `Retry-After` says when to try again. Nothing was kept.
   */
  'common.unavailable': 503,
  'auth.not_authenticated': 401,
  /** Email or password is wrong, or the account is not active yet. */
  'auth.invalid_credentials': 401,
  /** A JWT is malformed, has a bad signature, or is of the wrong type. */
  'auth.token_invalid': 401,
  'auth.token_expired': 401,
  /** The token was revoked by logout, a password change, or reuse of a rotated refresh token. */
  'auth.token_revoked': 401,
  'auth.init_data_invalid': 401,
  'auth.init_data_expired': 401,
  'auth.google_invalid': 401,
  /** The server has no Google client id configured, or cannot fetch Google's signing keys now. */
  'auth.google_unavailable': 503,
  /** The server has no Telegram bot configured. */
  'auth.telegram_unavailable': 503,
  'auth.permission_denied': 403,
  /** Staff banned the account: its sessions ended and every way of signing in is refused. */
  'auth.account_banned': 403,
  'users.email_taken': 400,
  'users.username_taken': 400,
  'users.activation_invalid': 400,
  /** The account is already active; the link was used before. */
  'users.activation_stale': 403,
  'users.reset_invalid': 400,
  'users.current_password_invalid': 400,
  /** The Google or Telegram identity already belongs to another Mirra account. */
  'users.identity_taken': 400,
  'users.not_found': 404,
  /** People cannot subscribe to themselves. */
  'users.cannot_subscribe_self': 400,
  /** The Telegram sign-in key is unknown. */
  'telegram.auth_key_unknown': 404,
  /** The Telegram sign-in key expired or its token was already taken. */
  'telegram.auth_key_gone': 410,
  'telegram.webhook_forbidden': 403,
  /** A provider's webhook whose signature does not verify (forged, stale, another account's). */
  'engines.webhook_forbidden': 403,
  /** A provider's webhook for a job Mirra has not recorded yet: the provider delivers it again later. */
  'engines.webhook_unknown_request': 404,
  'qs.not_found': 404,
  /** Not enough credits; `required`, `balance` and `difference` say by how much. */
  'credits.insufficient': 402,
  /** The free tier's pause between generations; `wait_seconds` says how long. */
  'generations.rate_limited': 429,
  'generations.not_found': 404,
  /** The Idempotency-Key was used before for a request with other inputs. */
  'generations.idempotency_key_reused': 422,
  /** The Idempotency-Key header is not 8–128 letters, digits, '-' or '_'. */
  'generations.idempotency_key_invalid': 400,
  /** The prompt was refused by moderation before anything was charged. */
  'generations.prompt_moderated': 400,
  /** Prompts are English only (the prompt helper translates). */
  'generations.prompt_not_english': 400,
  /** The mode needs a photo (editing, styling, face swap) and none or a wrong one was given. */
  'generations.image_required': 400,
  /** No engine is configured for this mode. */
  'generations.mode_unavailable': 400,
  /** Only a generation that ended in ERROR or FAILED can be retried (by staff). */
  'generations.not_retryable': 409,
  /** The result was refused by moderation; credits were refunded. */
  'generations.result_moderated': 422,
  /** The engine failed; credits were refunded. */
  'generations.engine_failed': 502,
  /** A face result did not look enough like the person of the digital model, twice; refunded. */
  'generations.likeness_failed': 422,
  /** Face swap and face photo need one of my trained digital models (`model_uuid`). */
  'generations.model_required': 400,
  /** The model named by `model_uuid` is not mine, does not exist, or is not trained yet. */
  'generations.model_unavailable': 400,
  /** The photo pack named by `settings.pack` is not on sale (unknown or retired). */
  'generations.pack_unavailable': 400,
  /**
   * Face swap onto someone else's post takes a face that passed a live check (one's own verified
   * model, or a model of a person who consented): this model never did.
   */
  'generations.face_unverified': 403,
  /** The post does not exist, or is a draft or hidden post of someone else. */
  'posts.not_found': 404,
  /** This result already has a post; `post_uuid` names it. */
  'posts.already_exists': 409,
  /** Only my own completed image results can be published. */
  'posts.not_publishable': 400,
  /** The result failed moderation when it was published. */
  'posts.result_moderated': 422,
  /** The title was refused by moderation. */
  'posts.title_moderated': 400,
  /** Enough people reported the post that it waits for review; it cannot be published meanwhile. */
  'posts.under_review': 409,
  /** The picture was made with a model whose person withdrew consent: it cannot be published. */
  'posts.consent_withdrawn': 403,
  /** No result is shared by this link. */
  'shares.not_found': 404,
  /** The owner stopped sharing this result: the link is no longer shared. */
  'shares.revoked': 410,
  /** Only my completed picture or video results can be shared. */
  'shares.not_shareable': 400,
  'uploads.not_found': 404,
  /** The file is larger than the configured limit (`max_mb`). */
  'uploads.too_big': 413,
  /** Not a JPEG, PNG, WebP or HEIC image, or unreadable. */
  'uploads.unsupported_type': 415,
  /** More pixels than the server will decode (a decompression bomb, or simply too large). */
  'uploads.too_many_pixels': 400,
  /** The picture was removed after a takedown request: the same picture is refused as an upload. */
  'uploads.blocked': 422,
  'models.not_found': 404,
  /** Training needs MODEL_MIN_PHOTOS good photos; `reference_count` and `min_photos` say how far. */
  'models.not_enough_photos': 400,
  /** The model is training: its photos cannot change until it finishes. */
  'models.training_in_progress': 409,
  /** A trained model is never retrained (photos can still be added). */
  'models.already_trained': 409,
  /** The model holds as many photos as allowed (`max_photos`). */
  'models.too_many_photos': 400,
  'models.photo_not_found': 404,
  /**
   * Training needs a passed live check of the person whose face the photos show; `reason` is
   * `missing`, `refused` (the latest check failed) or `outdated` (the photos changed since).
   */
  'models.live_check_required': 409,
  /** The live check compares the face with the model's good photos: there are none yet. */
  'models.live_check_needs_photos': 400,
  /**
   * A model of someone else trains only after that person confirmed through the consent link with
   * their own live check; `reason` is `missing` or `outdated` (the photos changed since).
   */
  'models.consent_required': 409,
  /** A consent link is only for a model of someone else. */
  'models.consent_not_needed': 400,
  /** No consent request by this link (or its signature does not verify). */
  'consents.not_found': 404,
  /** The link is too old to confirm with; the owner can send a new one. Withdrawing still works. */
  'consents.expired': 410,
  /** The model was deleted, or consent was withdrawn: nothing to confirm any more. */
  'consents.closed': 410,
  /** The offer and privacy boxes were not both ticked; nothing was ordered. */
  'payments.consent_required': 400,
  /** No such product in the catalogue. */
  'payments.product_unknown': 400,
  /** The payment method is not configured on this server. */
  'payments.method_unavailable': 400,
  /**
   * YooKassa fiscalises every payment (54-FZ): its receipt needs an email, and the account has
   * none and none was typed. Nothing was ordered.
   */
  'payments.email_required': 400,
  /**
   * The price the buyer was shown (`amount`, `currency` sent) is not what the server would charge
   * now (the catalogue or the region changed): nothing was ordered; the body names the new
   * `amount` and `currency`.
   */
  'payments.price_changed': 409,
  'payments.order_not_found': 404,
  /** A payment notification whose signature does not verify; nothing was applied. */
  'payments.signature_invalid': 403,
  /** A correctly signed payment notification Mirra cannot read (no object, no id); nothing was applied. */
  'payments.notification_invalid': 400,
  /** Only a paid order can be refunded. */
  'payments.not_refundable': 409,
  /** The wallet's available money in that currency is less than the amount. */
  'wallet.insufficient': 400,
  /** A currency the wallet does not hold (only 643 and 840). */
  'wallet.currency_unknown': 400,
  /**
   * Only earned commission is paid out: the wallet holds the amount, but part of it was topped up
   * (for spending in Mirra). The body names `payable`.
   */
  'wallet.not_payable': 400,
  /** A pay-out that was already paid or rejected cannot be decided the other way. */
  'partners.payout_decided': 409,
  /** Staff cannot approve their own pay-out: another staff member does. */
  'partners.payout_own': 403,
  /** The partner's balance is negative (a refund clawed back commission): the pay-out cannot be approved. */
  'partners.payout_in_debt': 409,
  /** A top-up below the minimum or above the maximum of its currency. */
  'wallet.amount_invalid': 400,
  /** The person already has premium with renewals on. */
  'subscriptions.already_active': 409,
  /** There is no subscription to cancel. */
  'subscriptions.not_found': 404,
} as const;

export type ErrorCode = keyof typeof errorCodes;
export const ZErrorCode = z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]);

/**
 * The wire shape of every error (DRF's conventions, which clients parse): a `detail` message
 * or per-field message lists, `non_field_errors` for errors about the whole object, plus `code`.
 */
export const ZApiError = z
  .object({
    code: ZErrorCode,
    detail: z.string().optional(),
    non_field_errors: z.array(z.string()).optional(),
  })
  .catchall(z.union([z.array(z.string()), z.string(), z.number(), z.null()]));
export type TApiError = z.infer<typeof ZApiError>;

export const NON_FIELD_ERRORS = 'non_field_errors';
