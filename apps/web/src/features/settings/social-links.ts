/**
 * The project's public channel and chat. Set at build time (VITE_TELEGRAM_CHANNEL_URL,
 * VITE_TELEGRAM_CHAT_URL); the defaults are the project's own handles.
 */
export const SOCIAL_LINKS = {
  channel: (import.meta.env.VITE_TELEGRAM_CHANNEL_URL as string | undefined) || 'https://t.me/mirra_ai',
  chat: (import.meta.env.VITE_TELEGRAM_CHAT_URL as string | undefined) || 'https://t.me/mirra_ai_chat',
};
