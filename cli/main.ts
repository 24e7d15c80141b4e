/**
 * `cairn`, the project's command line (README, "The cairn command" and "Restore from the
 * network"). `restore` (issue 19) rebuilds a permanent vault into a folder from a gateway alone
 * (`--gateway`, `--vault`) or from an encrypted export (`--from`), with no Cairn server, checking
 * every signature and chunk as a member's device does (src/network/restoreReader.ts). `login`,
 * `logout`, `ls`, `upload` and `download` (issue 24) work against a Cairn server with an API key,
 * as a device of the account running the app's own crypto and sync code (device.ts).
 *
 * The API key and the recovery phrase are read from standard input or the environment, never
 * from an argument (arguments land in shell histories and process lists). Listings go to
 * standard output; progress and messages to standard error.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bytesToHex } from '../src/crypto/encoding';
import { deriveWalletKeysFromEntropy, wipeWalletKeys, type WalletKeys } from '../src/crypto/keys';
import { isValidPhrase, normalisePhrase, phraseToEntropy } from '../src/crypto/phrase';
import { vaultLayout } from '../src/domain/vaultLayout';
import { Id } from '../src/protocol/primitives';
import { exportSource } from '../src/network/encryptedExport';
import { gatewaySource } from '../src/network/gatewaySource';
import { readVaultHistory, readVersion, RestoreError, type RestoredVault, type VaultItemSource } from '../src/network/restoreReader';
import { runLogin, runLogout, parseServer } from './accountCommands';
import { CliError, EXIT_CODES } from './CliError';
import { configDir, loadConfig } from './config';
import { openDevice } from './device';
import { fileSink } from './fileSink';
import { promptHidden, readAll, SecretReader, type CliStdin } from './input';
import { ProgressLine } from './progress';
import { chatJson, timelineJson } from './roomJson';
import { DEFAULT_STALL_MS, runUpload } from './uploadCommand';
import { runDownload, runLs } from './vaultCommands';

export { EXIT_CODES } from './CliError';

export const HELP = `Usage:
  cairn login --server URL
  cairn logout
  cairn ls [VAULT[/path/to/folder]]
  cairn upload PATH... --vault VAULT [--to folder/path]
  cairn download VAULT/path/to/file --out FILE|DIR
  cairn restore --gateway URL --vault ID --out DIR [--with-chat] [--force]
  cairn restore --from FILE --out DIR [--with-chat] [--force]

login signs in to a Cairn server with an API key (made on the Developers page) and checks the
12-word recovery phrase is the account's; it saves the server and the key (not the phrase) in
$CAIRN_CONFIG_DIR/config.json (default ~/.config/cairn), readable by you only. Both are read from
standard input (prompts that do not echo, or one piped line each: the key, then the phrase) or
from CAIRN_API_KEY and CAIRN_PHRASE; never from an argument. ls, upload and download ask for the
phrase again the same way (it opens the vaults' keys on this machine and is never stored).

ls lists your vaults (name, id, private or public, cloud or permanent), or a folder of one (name,
size in bytes, file or folder), one a line, tab-separated; a vault is named by its name or id.
upload sends files and whole folders (their tree kept; dot files such as .DS_Store left out) into
the vault, under --to (folders made as needed), encrypted as the app encrypts them, and exits once
every file is stored and its operation accepted; progress goes to standard error. Interrupted
(Ctrl-C, a lost network), it stops; the same command run again goes on from the chunks the server
already has. download writes the newest version of a file, every chunk checked.

restore rebuilds a permanent vault into the folder DIR with no Cairn server: its folders, its files
(the newest version of each) and its notes as markdown files. Every operation's signature and
the membership rules are checked from the vault's creation on, and every chunk against the hash
its uploader signed. The 12-word recovery phrase is read from standard input (typed at a prompt
that does not echo, or piped).

Options:
  --gateway URL   an Arweave gateway holding the vault's history (e.g. https://arweave.net)
  --vault ID      the vault's id, or its link cairn://vault/ID
  --from FILE     an encrypted export ('Export encrypted') instead of a gateway; works offline
  --out DIR       where to write the vault; it must be empty or not exist yet
  --force         write into DIR even when it is not empty (files of the same path are replaced)
  --with-chat     also write .cairn/chat.json and .cairn/timeline.json (oldest first)
  -h, --help      show this text

Exit codes: 0 done; 1 unexpected error; 2 bad arguments, an unreadable export or a non-empty
DIR; 3 wrong recovery phrase (not a member of the vault, or not the account's); 4 unknown vault
(nothing of it on the gateway, or none of your vaults of that name or id); 5 tampered history or
file (the message names the operation's seq or the file); 6 server or gateway unreachable (an
upload can be resumed); 7 the API key was refused; 8 the API key's requests for the period are
used up; 9 not a member of the vault, or a viewer uploading; 10 not signed in (run cairn login);
11 an upload failed or was refused; 130 interrupted (an upload can be resumed).
`;

export interface CliIo {
  stdin: CliStdin;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  /** Defaults to process.env (CAIRN_CONFIG_DIR, CAIRN_API_KEY, CAIRN_PHRASE, CAIRN_STALL_SECONDS). */
  env?: NodeJS.ProcessEnv;
  /** The network; defaults to the global fetch (tests cut it midway). */
  fetch?: typeof fetch;
  /** Aborted on Ctrl-C (bin/cairn.mjs): an upload stops and saves where it is. */
  signal?: AbortSignal;
}

const processIo: CliIo = { stdin: process.stdin, stderr: process.stderr, stdout: process.stdout };

/** Runs the command; answers its exit code. Never throws. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`${line}\n`);
  try {
    return await run(argv, io, say);
  } catch (error) {
    if (error instanceof RestoreError || error instanceof CliError) {
      say(`cairn: ${error.message}`);
      return EXIT_CODES[error.code];
    }
    say(`cairn: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_CODES.UNEXPECTED;
  }
}

function usage(message: string, command = 'restore'): never {
  throw new RestoreError('BAD_INPUT', `${message} (see cairn ${command} --help).`);
}

const SERVER_COMMANDS = new Set(['login', 'logout', 'ls', 'upload', 'download']);

async function run(argv: string[], io: CliIo, say: (line: string) => void): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.stdout.write(HELP);
    return command === undefined ? EXIT_CODES.BAD_INPUT : EXIT_CODES.OK;
  }
  if (SERVER_COMMANDS.has(command)) return runServerCommand(command, rest, io, say);
  if (command !== 'restore') usage(`Unknown command "${command}"`);
  let values: { gateway?: string; vault?: string; from?: string; out?: string; force?: boolean; 'with-chat'?: boolean; help?: boolean };
  try {
    values = parseArgs({
      args: rest,
      options: {
        gateway: { type: 'string' },
        vault: { type: 'string' },
        from: { type: 'string' },
        out: { type: 'string' },
        force: { type: 'boolean' },
        'with-chat': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_CODES.OK;
  }
  if (!values.out) usage('--out DIR is required');
  if (values.from && (values.gateway || values.vault)) usage('Give either --from FILE or --gateway and --vault, not both');
  if (!values.from && !(values.gateway && values.vault)) usage('Give --gateway URL and --vault ID, or --from FILE');
  const vaultId = values.vault === undefined ? undefined : parseVaultId(values.vault);
  if (values.gateway && !/^https?:\/\/[^\s]+$/i.test(values.gateway)) usage(`"${values.gateway}" is not a gateway address (http:// or https://)`);

  const out = path.resolve(values.out);
  await assertOutFree(out, values.force === true);

  let source: VaultItemSource;
  let id: string;
  if (values.from) {
    const file = path.resolve(values.from);
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new RestoreError('BAD_INPUT', `The export file ${values.from} does not exist.`);
    const exported = await exportSource(await fs.openAsBlob(file), path.basename(file));
    source = exported;
    id = exported.manifest.vaultId;
  } else {
    source = gatewaySource(values.gateway!);
    id = vaultId!;
  }

  const keys = await readPhraseKeys(io, say);
  try {
    say(`Reading vault ${id} from ${source.label}`);
    const restored = await readVaultHistory(source, id, keys, say);
    await writeVault(source, restored, out, values['with-chat'] === true, bytesToHex(keys.signingPublicKey), say);
  } finally {
    wipeWalletKeys(keys);
  }
  return EXIT_CODES.OK;
}

/** `ID` or `cairn://vault/ID` (the vault's link). */
function parseVaultId(text: string): string {
  const id = text.trim().replace(/^cairn:\/\/vault\//i, '').replace(/\/+$/, '');
  if (!Id.safeParse(id).success) usage(`"${text}" is not a vault id`);
  return id;
}

async function assertOutFree(out: string, force: boolean): Promise<void> {
  let entries: string[];
  try {
    const stat = await fsp.stat(out);
    if (!stat.isDirectory()) throw new RestoreError('BAD_INPUT', `${out} exists and is not a folder.`);
    entries = await fsp.readdir(out);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (entries.length > 0 && !force) throw new RestoreError('BAD_INPUT', `${out} is not empty: choose an empty folder, or add --force to write into it.`);
}

/** The phrase from standard input: a prompt with no echo on a terminal, else all it holds. */
async function readPhraseKeys(io: CliIo, say: (line: string) => void): Promise<WalletKeys> {
  const text = io.stdin.isTTY ? await promptHidden(io, 'Recovery phrase (12 words): ') : await readAll(io.stdin);
  const phrase = normalisePhrase(text);
  if (!isValidPhrase(phrase)) throw new RestoreError('WRONG_PHRASE', 'This is not a valid recovery phrase: enter the 12 words Cairn gave you, in order.');
  say('Deriving the keys of the recovery phrase');
  return deriveWalletKeysFromEntropy(phraseToEntropy(phrase));
}

/** Writes the vault's folders, files and (with `withChat`) chat under `out` (R88's layout). */
async function writeVault(source: VaultItemSource, restored: RestoredVault, out: string, withChat: boolean, viewerKey: string, say: (line: string) => void): Promise<void> {
  const { state } = restored;
  const layout = vaultLayout([...state.nodes.values()]);
  const files = layout.filter((entry) => entry.kind === 'file');
  say(`Vault "${state.vault.name}": ${layout.length - files.length} folder(s), ${files.length} file(s)`);
  await fsp.mkdir(out, { recursive: true });
  for (const entry of layout) if (entry.kind === 'folder') await fsp.mkdir(path.join(out, ...entry.path.split('/')), { recursive: true });
  let done = 0;
  for (const entry of files) {
    const node = state.nodes.get(entry.id)!;
    const version = node.latestVersionId ? state.versions.get(node.latestVersionId) : undefined;
    if (!version) continue;
    done += 1;
    say(`File ${done}/${files.length}: ${entry.path} (${version.size} bytes)`);
    const target = path.join(out, ...entry.path.split('/'));
    await readVersion(source, restored, version, entry.path, fileSink(target));
    // The source file's time as its uploader's device saw it (signed with the version).
    if (version.lastModified > 0) await fsp.utimes(target, new Date(), new Date(version.lastModified));
  }
  if (withChat) {
    await fsp.mkdir(path.join(out, '.cairn'), { recursive: true });
    await fsp.writeFile(path.join(out, '.cairn', 'chat.json'), chatJson(state));
    await fsp.writeFile(path.join(out, '.cairn', 'timeline.json'), timelineJson(restored, viewerKey));
    say(`Chat: ${state.memos.size} message(s) in .cairn/chat.json; the timeline in .cairn/timeline.json`);
  }
  say(`Restored vault "${state.vault.name}" (${restored.headSeq} operations verified) into ${out}`);
}

/** login, logout, ls, upload, download: the commands that talk to a Cairn server. */
async function runServerCommand(command: string, args: string[], io: CliIo, say: (line: string) => void): Promise<number> {
  let parsed: { values: { server?: string; vault?: string; to?: string; out?: string; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: {
        server: { type: 'string' },
        vault: { type: 'string' },
        to: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error), command);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_CODES.OK;
  }
  const allowed: Record<string, string[]> = { login: ['server'], logout: [], ls: [], upload: ['vault', 'to'], download: ['out'] };
  for (const [name, value] of Object.entries(values)) if (value !== undefined && name !== 'help' && !allowed[command]!.includes(name)) usage(`cairn ${command} takes no --${name}`, command);
  const env = io.env ?? process.env;
  const secrets = new SecretReader({ stdin: io.stdin, stderr: io.stderr, env });
  const network = { fetch: io.fetch ?? fetch, ...(io.signal ? { signal: io.signal } : {}) };

  if (command === 'logout') {
    if (positionals.length) usage('cairn logout takes no arguments', command);
    await runLogout(env, say);
    return EXIT_CODES.OK;
  }
  if (command === 'login') {
    if (positionals.length) usage('cairn login takes no arguments: the key and the phrase are read from standard input', command);
    await runLogin(parseServer(values.server), (prompt, name) => secrets.read(prompt, name), network, env, say);
    return EXIT_CODES.OK;
  }
  if (command === 'ls' && positionals.length > 1) usage('cairn ls takes one VAULT[/path] at most', command);
  if (command === 'upload') {
    if (!positionals.length) usage('Name the files or folders to upload', command);
    if (!values.vault) usage('--vault VAULT is required (cairn ls lists your vaults)', command);
  }
  if (command === 'download') {
    if (positionals.length !== 1) usage('Name one file to download: VAULT/path/to/file', command);
    if (!values.out) usage('--out FILE|DIR is required', command);
  }

  const config = await loadConfig(env);
  const phrase = await secrets.read('Recovery phrase (12 words): ', 'CAIRN_PHRASE');
  const device = await openDevice({ ...network, server: config.server, apiKey: config.apiKey }, phrase);
  try {
    if (command === 'ls') await runLs(device, positionals[0], io.stdout);
    else if (command === 'download') await runDownload(device, positionals[0]!, values.out!, io.stderr, say);
    else {
      const stallSeconds = Number(env.CAIRN_STALL_SECONDS);
      await runUpload(device, {
        paths: positionals,
        vault: values.vault!,
        to: values.to,
        configDir: configDir(env),
        server: config.server,
        stallMs: Number.isFinite(stallSeconds) && stallSeconds > 0 ? stallSeconds * 1000 : DEFAULT_STALL_MS,
        signal: io.signal,
        progress: new ProgressLine(io.stderr, 'Uploading'),
        say,
      });
    }
  } finally {
    device.close();
  }
  return EXIT_CODES.OK;
}
