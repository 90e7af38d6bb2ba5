/**
 * A small client for the Telegram Bot API: `POST {apiBase}/bot{token}/{method}` with JSON, answered
 * by the envelope `{ok: true, result}` or `{ok: false, error_code, description, parameters}`.
 * TELEGRAM_API_BASE points it at the real API, a self-hosted Bot API server, or the test fake.
 */
export class TelegramApiError extends Error {
  override name = 'TelegramApiError';
  constructor(
    readonly method: string,
    readonly errorCode: number,
    readonly description: string,
    /** Seconds to wait before retrying, when Telegram said so (429). */
    readonly retryAfter?: number,
  ) {
    super(`Telegram ${method} failed: ${errorCode} ${description}`);
  }

  /** The user blocked the bot or never started it: retrying will not help. */
  get isForbidden(): boolean {
    return this.errorCode === 403;
  }
}

export interface InlineKeyboardButton {
  text: string;
  url?: string;
  web_app?: { url: string };
}

export interface SendMessageParams {
  chat_id: number | string;
  text: string;
  parse_mode?: 'HTML' | 'MarkdownV2';
  reply_markup?: { inline_keyboard: InlineKeyboardButton[][] };
  link_preview_options?: { is_disabled: boolean };
}

export interface TelegramBotApi {
  call<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  getMe(): Promise<{ id: number; is_bot: boolean; first_name: string; username: string }>;
  sendMessage(params: SendMessageParams): Promise<{ message_id: number }>;
  setWebhook(params: {
    url: string;
    secret_token?: string;
    allowed_updates?: string[];
    drop_pending_updates?: boolean;
  }): Promise<boolean>;
  deleteWebhook(params?: { drop_pending_updates?: boolean }): Promise<boolean>;
  getWebhookInfo(): Promise<WebhookInfo>;
}

/** What Telegram knows of the webhook, including the last delivery error it met. */
export interface WebhookInfo {
  url: string;
  has_custom_certificate: boolean;
  pending_update_count: number;
  allowed_updates?: string[];
  max_connections?: number;
  ip_address?: string;
  last_error_date?: number;
  last_error_message?: string;
}

export function createTelegramBotApi(options: {
  apiBase: string;
  botToken: string;
  timeoutMs?: number;
}): TelegramBotApi {
  const base = `${options.apiBase}/bot${options.botToken}`;

  async function call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const response = await fetch(`${base}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    let body: {
      ok?: boolean;
      result?: T;
      error_code?: number;
      description?: string;
      parameters?: { retry_after?: number };
    } | null;
    try {
      body = (await response.json()) as typeof body;
    } catch {
      body = null;
    }
    // A proxy in front (or an outage) may answer with HTML or nothing at all.
    if (!body || typeof body !== 'object') {
      throw new TelegramApiError(method, response.status, `unreadable response (HTTP ${response.status})`);
    }
    if (!body.ok) {
      throw new TelegramApiError(
        method,
        body.error_code ?? response.status,
        body.description ?? 'unknown error',
        body.parameters?.retry_after,
      );
    }
    return body.result as T;
  }

  return {
    call,
    getMe: () => call('getMe'),
    sendMessage: (params) => call('sendMessage', { ...params }),
    setWebhook: (params) => call('setWebhook', { ...params }),
    deleteWebhook: (params = {}) => call('deleteWebhook', { ...params }),
    getWebhookInfo: () => call('getWebhookInfo'),
  };
}
