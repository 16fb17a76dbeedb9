import pino from 'pino';

/** Structured JSON logs on stdout. Codes and passwords are never logged. */
export const log = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: undefined,
  redact: ['password', '*.password', 'code', '*.code', 'authorization', '*.authorization'],
});
export type Logger = typeof log;
