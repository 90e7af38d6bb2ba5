import { pino } from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string, name = 'mirra'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-telegram-bot-api-secret-token"]',
        '*.password',
        '*.new_password',
        '*.current_password',
      ],
      censor: '[redacted]',
    },
  });
}
