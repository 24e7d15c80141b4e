/** The HTTP status an action's error carries, when it has one (ApiError and friends). */
export function errorStatus(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    const status = (error as { status: unknown }).status;
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

/** Spec 000 section 8: each action's failure reads 'There was an error {doing it}.' */
export function actionErrorText(doing?: string): string {
  return doing ? `There was an error ${doing}.` : 'There was an error.';
}
