import pino from 'pino';

/** Structured JSON logs on stdout. Codes and passwords are never logged. */
export const log = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: undefined,
  // database errors carry the statement's parameters (codes, hashes): never log them
  redact: {
    paths: ['password', '*.password', 'code', '*.code', 'authorization', '*.authorization', 'err.params', 'err.parameters', 'err.query', 'err.where', 'params'],
    censor: '[redacted]',
  },
});
export type Logger = typeof log;
