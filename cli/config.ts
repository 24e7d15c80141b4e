/**
 * Where `cairn login` keeps what later commands need: the server's address and the API key, in
 * `config.json` under CAIRN_CONFIG_DIR (default $XDG_CONFIG_HOME/cairn, else ~/.config/cairn),
 * readable by its owner only (0600, in a 0700 folder). The recovery phrase is never written: it
 * is asked for again by each command that opens a vault (docs/decisions.md, "the cairn command").
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { CliError } from './CliError';

export const CliConfig = z.strictObject({
  server: z.url(),
  apiKey: z.string().min(1),
});
export type CliConfig = z.infer<typeof CliConfig>;

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.CAIRN_CONFIG_DIR) return path.resolve(env.CAIRN_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(os.homedir(), '.config');
  return path.join(base, 'cairn');
}

export function configFile(env: NodeJS.ProcessEnv): string {
  return path.join(configDir(env), 'config.json');
}

/** Writes `text` to `file` readable by its owner only, whole or not at all (a temp file renamed). */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  await fsp.writeFile(temp, text, { mode: 0o600 });
  // writeFile's mode applies only to a file it creates; a leftover temp file keeps its own.
  await fsp.chmod(temp, 0o600);
  await fsp.rename(temp, file);
}

export async function saveConfig(env: NodeJS.ProcessEnv, config: CliConfig): Promise<string> {
  const file = configFile(env);
  await writePrivateFile(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** The saved config; CliError NOT_SIGNED_IN when there is none (or it is not one). */
export async function loadConfig(env: NodeJS.ProcessEnv): Promise<CliConfig> {
  let text: string;
  try {
    text = await fsp.readFile(configFile(env), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError('NOT_SIGNED_IN', 'Not signed in: run cairn login --server URL first.');
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const parsed = CliConfig.safeParse(json);
  if (!parsed.success) throw new CliError('NOT_SIGNED_IN', `${configFile(env)} is not a cairn config: run cairn login --server URL again.`);
  return parsed.data;
}

/** Forgets the server and key, and any interrupted upload's state. Answers whether there was a config. */
export async function removeConfig(env: NodeJS.ProcessEnv): Promise<boolean> {
  const file = configFile(env);
  const existed = await fsp.rm(file).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  await fsp.rm(path.join(configDir(env), 'uploads'), { recursive: true, force: true });
  return existed;
}
