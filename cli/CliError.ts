/**
 * The `cairn` command's failures, each with its exit code (README, "The cairn command"). The
 * restore's own failures (RestoreError, src/network/restoreReader.ts) keep their codes; the
 * commands that talk to a Cairn server add theirs.
 */
import type { RestoreFailure } from '../src/network/restoreReader';

export type CliFailure = RestoreFailure | 'KEY_REFUSED' | 'RATE_LIMITED' | 'NOT_MEMBER' | 'NOT_SIGNED_IN' | 'UPLOAD_FAILED' | 'INTERRUPTED';

/** Exit codes, one per kind of failure (README lists them). */
export const EXIT_CODES: Record<CliFailure | 'OK' | 'UNEXPECTED', number> = {
  OK: 0,
  UNEXPECTED: 1,
  BAD_INPUT: 2,
  WRONG_PHRASE: 3,
  UNKNOWN_VAULT: 4,
  TAMPERED: 5,
  UNREACHABLE: 6,
  KEY_REFUSED: 7,
  RATE_LIMITED: 8,
  NOT_MEMBER: 9,
  NOT_SIGNED_IN: 10,
  UPLOAD_FAILED: 11,
  // As a shell reports a command stopped by Ctrl-C (128 + SIGINT).
  INTERRUPTED: 130,
};

/** A failure the command reports in one line (`cairn: <message>`) and exits with its code. */
export class CliError extends Error {
  constructor(
    readonly code: CliFailure | 'UNEXPECTED',
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const KEY_REFUSED_MESSAGE = 'The API key was refused: generate a new one on the Developers page';
export const WRONG_ACCOUNT_PHRASE_MESSAGE = "This recovery phrase is not this account's";
