/**
 * `cairn`, the project's command line (issue 19; README, "Restore from the network"). One
 * subcommand today: `restore`, which rebuilds a permanent vault into a folder from a gateway alone
 * (`--gateway`, `--vault`) or from an encrypted export (`--from`), with no Cairn server, checking
 * every signature and chunk as a member's device does (src/network/restoreReader.ts).
 *
 * The recovery phrase is read from standard input, never from an argument (arguments land in
 * shell histories and process lists). Progress goes to standard error, one line a step.
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
import { readVaultHistory, readVersion, RestoreError, type RestoreFailure, type RestoredVault, type VaultItemSource } from '../src/network/restoreReader';
import { chatJson, timelineJson } from './roomJson';

/** Exit codes, one per kind of failure (README lists them). */
export const EXIT_CODES: Record<RestoreFailure | 'OK' | 'UNEXPECTED', number> = {
  OK: 0,
  UNEXPECTED: 1,
  BAD_INPUT: 2,
  WRONG_PHRASE: 3,
  UNKNOWN_VAULT: 4,
  TAMPERED: 5,
  UNREACHABLE: 6,
};

export const HELP = `Usage:
  cairn restore --gateway URL --vault ID --out DIR [--with-chat] [--force]
  cairn restore --from FILE --out DIR [--with-chat] [--force]

Rebuilds a permanent vault into the folder DIR with no Cairn server: its folders, its files
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

Exit codes: 0 restored; 1 unexpected error; 2 bad arguments, an unreadable export or a non-empty
DIR; 3 wrong recovery phrase (not a member of the vault); 4 unknown vault id (nothing of it on
the gateway); 5 tampered history or file (the message names the operation's seq or the file);
6 gateway unreachable.
`;

export interface CliIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stderr: NodeJS.WritableStream;
  stdout: NodeJS.WritableStream;
}

const processIo: CliIo = { stdin: process.stdin, stderr: process.stderr, stdout: process.stdout };

/** Runs the command; answers its exit code. Never throws. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`${line}\n`);
  try {
    return await run(argv, io, say);
  } catch (error) {
    if (error instanceof RestoreError) {
      say(`cairn: ${error.message}`);
      return EXIT_CODES[error.code];
    }
    say(`cairn: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_CODES.UNEXPECTED;
  }
}

function usage(message: string): never {
  throw new RestoreError('BAD_INPUT', `${message} (see cairn restore --help).`);
}

async function run(argv: string[], io: CliIo, say: (line: string) => void): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.stdout.write(HELP);
    return command === undefined ? EXIT_CODES.BAD_INPUT : EXIT_CODES.OK;
  }
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

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const piece of stream) text += typeof piece === 'string' ? piece : Buffer.from(piece).toString('utf8');
  return text;
}

/** Reads one line from a terminal without echoing it (raw mode: Enter ends, Backspace erases, Ctrl-C quits). */
function promptHidden(io: CliIo, prompt: string): Promise<string> {
  io.stderr.write(prompt);
  const stdin = io.stdin;
  stdin.setRawMode?.(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let text = '';
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write('\n');
    };
    const onData = (data: Buffer | string) => {
      for (const char of data.toString()) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          done();
          resolve(text);
          return;
        }
        if (char === '\u0003') {
          done();
          reject(new RestoreError('BAD_INPUT', 'Cancelled.'));
          return;
        }
        if (char === '\u007f' || char === '\b') text = text.slice(0, -1);
        else text += char;
      }
    };
    stdin.on('data', onData);
  });
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

/** Writes a file beside its place, renamed into it only once every chunk checked out. */
function fileSink(target: string) {
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.cairn-partial`);
  let handle: fsp.FileHandle | null = null;
  return {
    async write(bytes: Uint8Array) {
      handle ??= await fsp.open(partial, 'w');
      await handle.write(bytes);
    },
    async discard() {
      await handle?.close();
      handle = null;
      await fsp.rm(partial, { force: true });
    },
    async finish() {
      handle ??= await fsp.open(partial, 'w');
      await handle.close();
      handle = null;
      await fsp.rename(partial, target);
    },
  };
}
