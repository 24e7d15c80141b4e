import { SupportResponse } from '../../protocol/auth';
import { LIMITS } from '../../protocol/primitives';
import { getApiClient } from '../../platform/apiClient';

export interface ErrorReport {
  action: string;
  error?: unknown;
  context?: string;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}\n${error.stack ?? ''}`;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** POST /api/support: what failed, where, and in which browser. Returns the issue id. */
export async function sendErrorReport(report: ErrorReport): Promise<string> {
  const body = {
    action: report.action.slice(0, 200),
    ...(report.error !== undefined ? { error: describe(report.error).slice(0, LIMITS.SUPPORT_FIELD_MAX) } : {}),
    ...(report.context ? { context: report.context.slice(0, LIMITS.SUPPORT_FIELD_MAX) } : {}),
    userAgent: navigator.userAgent.slice(0, 1_000),
    path: (location.pathname + location.search).slice(0, 2_000),
  };
  const { issueId } = await getApiClient().post('/support', body, SupportResponse);
  return issueId;
}
