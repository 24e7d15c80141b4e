/**
 * `cairn login --server URL` and `cairn logout`. Login checks the API key (GET /api/account) and
 * that the recovery phrase is the account's (its address), then saves the server and the key
 * (config.ts); the phrase is not saved.
 */
import { createApiClient, type FetchLike } from '../src/platform/apiClient';
import { CliError } from './CliError';
import { configFile, removeConfig, saveConfig } from './config';
import { fetchAccount, openWallet, serverFetch, type ServerAccess } from './device';

/** Anything a server could take for a bearer token; the server says whether it is a key. */
const KEY_SHAPE = /^[\x21-\x7e]{16,512}$/;

export function parseServer(text: string | undefined): string {
  if (!text) throw new CliError('BAD_INPUT', '--server URL is required (the address you open Cairn at).');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError('BAD_INPUT', `"${text}" is not a server address (https://...).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliError('BAD_INPUT', `"${text}" is not a server address (https://...).`);
  return url.toString().replace(/\/+$/, '');
}

export async function runLogin(
  server: string,
  readSecret: (prompt: string, envName: string) => Promise<string>,
  access: Omit<ServerAccess, 'server' | 'apiKey'>,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): Promise<void> {
  const apiKey = await readSecret('API key (from the Developers page): ', 'CAIRN_API_KEY');
  if (!KEY_SHAPE.test(apiKey)) throw new CliError('KEY_REFUSED', 'This is not an API key: copy it from the Developers page.');
  const phrase = await readSecret('Recovery phrase (12 words): ', 'CAIRN_PHRASE');
  const full = { ...access, server, apiKey };
  const account = await fetchAccount(createApiClient({ fetch: serverFetch(full) as FetchLike }), server);
  const crypto = await openWallet(phrase, account);
  await crypto.lock?.();
  await saveConfig(env, { server, apiKey });
  say(`Signed in to ${server} as ${account.email}. The server and the key are saved in ${configFile(env)}; the recovery phrase is not: each command asks for it (or reads CAIRN_PHRASE).`);
}

export async function runLogout(env: NodeJS.ProcessEnv, say: (line: string) => void): Promise<void> {
  const existed = await removeConfig(env);
  say(existed ? `Signed out: ${configFile(env)} removed.` : 'Not signed in.');
}
