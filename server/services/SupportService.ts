import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { SupportRequest } from '../../src/protocol/auth';
import type { Database } from '../db/Database';
import type { Clock } from './Clock';
import { randomId } from './tokens';

type SupportReport = z.output<typeof SupportRequest>;

/** Error reports sent from the app's error screens ('Send an error report.'). */
export class SupportService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Stores the report and answers the id the user can quote. */
  async create(report: SupportReport, userId: string | null): Promise<{ issueId: string }> {
    const id = randomId();
    await this.db
      .insertInto('support_reports')
      .values({
        id,
        user_id: userId,
        action: report.action ?? null,
        error: report.error ?? null,
        context: report.context ?? null,
        user_agent: report.userAgent ?? null,
        path: report.path ?? null,
        created_at: this.clock.now(),
      })
      .execute();
    return { issueId: id };
  }
}
