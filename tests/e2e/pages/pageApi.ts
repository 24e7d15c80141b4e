import type { Page } from '@playwright/test';

/**
 * GETs an API path from the page itself, with its session (the account the page shows), and
 * answers the JSON; throws if the answer is not OK. Not page.request: its connection, kept alive
 * since sign-up, can be closed by the server while idle, and Node's client does not retry a
 * request on a reused connection as the browser does.
 */
export function getApiJson<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const answer = await fetch(url, { credentials: 'same-origin' });
    if (!answer.ok) throw new Error(`GET ${url} answered ${answer.status}`);
    return answer.json() as Promise<unknown>;
  }, path) as Promise<T>;
}
