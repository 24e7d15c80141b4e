/**
 * The server's logger outside a request: pino, the logger Fastify itself uses (app.log), so every
 * line the server writes is one JSON object with a level, a time and a message. main.ts logs with
 * it until the app exists (a bad setting, an unreachable database), and the database pool and the
 * LISTEN buses report through it. Terminal tools (server/ops, server/admin) print for the operator
 * instead.
 */
import pino from 'pino';
import type { LogLevel } from './config';

/** What the server's modules need of a logger; pino's and Fastify's loggers both fit. */
export interface Logger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export function createLogger(level: LogLevel = 'info'): pino.Logger {
  return pino({ level });
}

