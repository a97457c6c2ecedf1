import pino, { type Logger } from 'pino';

/**
 * JSON logs, written asynchronously (a synchronous write per request costs more than the
 * request). Secrets never reach the logger: request headers are not serialised at all.
 */
export function createLogger(options: { level: string; file?: string | undefined }): Logger {
  const destination = pino.destination({ dest: options.file ?? 1, sync: false, mkdir: true, minLength: 4096 });
  return pino(
    {
      level: options.level,
      redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'key', 'token', 'secret'], censor: '[redacted]' },
    },
    destination,
  );
}
