import { pino } from 'pino';
import { currentRequestContext } from './request-context.js';

export type Logger = pino.Logger;

/**
 * Secrets, tokens and Telegram init data never reach a log line: credential headers, cookies and
 * every body field that carries a password, a token or signed init data, at the top level, one
 * level down (a request's `body`) and two (`req.body`).
 */
const SECRET_FIELDS = [
  'password',
  'new_password',
  'current_password',
  're_new_password',
  'refresh',
  'access',
  'token',
  'initData',
  'init_data',
  'tgData',
  'tg_data',
  'credential',
];
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-telegram-bot-api-secret-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];

export function createLogger(level: string, name = 'mirra', destination?: pino.DestinationStream): Logger {
  const logger: Logger = pino(
    {
      name,
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // A job's lines, and the process logger's lines during a request, carry the request id
      // (a request's own logger already binds it as reqId).
      mixin(_object, _level, caller) {
        const context = currentRequestContext();
        if (!context) return {};
        return context.kind === 'job' || caller === logger ? { reqId: context.requestId } : {};
      },
    },
    destination,
  );
  return logger;
}
