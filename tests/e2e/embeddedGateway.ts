/**
 * The e2e server's embedded arlocal, read from the test's side. Its address is the server's alone
 * (GET /api/config/arweave publishes nothing for it, SYNC_SPEC R54): the lock file in DATA_DIR
 * names it, and requests go through Node's fetch, since the gateway refuses what a browser sends.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from './fixtures';

export function embeddedGatewayUrl(): string {
  const lock = JSON.parse(readFileSync(join(DATA_DIR, 'arlocal.lock'), 'utf8')) as { gatewayUrl: string };
  return lock.gatewayUrl.replace(/\/$/, '');
}

/** The item's tags as the gateway's GraphQL has them. */
export async function embeddedGatewayTags(id: string): Promise<Record<string, string>> {
  const response = await fetch(`${embeddedGatewayUrl()}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ transaction(id: "${id}") { tags { name value } } }` }),
  });
  const body = (await response.json()) as { data: { transaction: { tags: { name: string; value: string }[] } | null } };
  return Object.fromEntries((body.data.transaction?.tags ?? []).map((t) => [t.name, t.value]));
}
