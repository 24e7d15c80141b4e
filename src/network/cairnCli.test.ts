/**
 * The `cairn` command's arguments and the encrypted export's shape (R87, R89), in process: what a
 * user who types it wrong reads, and what a zip that is not an export gives. The restore itself
 * runs end to end in cairnRestore.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { BlobReader, ZipReader } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, HELP, main } from '../../cli/main';
import { exportSource, writeEncryptedExport } from './encryptedExport';
import { RestoreError } from './restoreReader';

async function runCli(args: string[], stdinText = ''): Promise<{ code: number; stderr: string; stdout: string }> {
  const stdin = new PassThrough();
  stdin.end(stdinText);
  const stderr = new PassThrough();
  const stdout = new PassThrough();
  let err = '';
  let out = '';
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await main(args, { stdin, stderr, stdout });
  return { code, stderr: err.trim(), stdout: out };
}

describe('[R89] cairn restore: arguments', () => {
  it('--help prints the usage and exits 0; no command prints it and exits 2', async () => {
    expect(await runCli(['restore', '--help'])).toEqual({ code: 0, stderr: '', stdout: HELP });
    expect((await runCli([])).code).toBe(EXIT_CODES.BAD_INPUT);
  });

  it('a wrong command, a missing --out, both sources, a bad vault id or gateway: one line, exit 2, nothing written', async () => {
    const cases: [string[], string][] = [
      [['backup'], 'cairn: Unknown command "backup" (see cairn restore --help).'],
      [['restore', '--gateway', 'https://g.example', '--vault', 'v1'], 'cairn: --out DIR is required (see cairn restore --help).'],
      [['restore', '--from', 'x.zip', '--gateway', 'https://g.example', '--out', 'o'], 'cairn: Give either --from FILE or --gateway and --vault, not both (see cairn restore --help).'],
      [['restore', '--vault', 'v1', '--out', 'o'], 'cairn: Give --gateway URL and --vault ID, or --from FILE (see cairn restore --help).'],
      [['restore', '--gateway', 'https://g.example', '--vault', 'cairn://vault/../etc', '--out', 'o'], 'cairn: "cairn://vault/../etc" is not a vault id (see cairn restore --help).'],
      [['restore', '--gateway', 'file:///etc', '--vault', 'v1', '--out', 'o'], 'cairn: "file:///etc" is not a gateway address (http:// or https://) (see cairn restore --help).'],
    ];
    for (const [args, line] of cases) {
      const run = await runCli(args);
      expect([run.code, run.stderr], args.join(' ')).toEqual([EXIT_CODES.BAD_INPUT, line]);
    }
    expect(fs.existsSync('o')).toBe(false);
  });

  it('--from a file that is not an export: exit 2 before the phrase is asked', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cli-'));
    try {
      const junk = path.join(dir, 'junk.zip');
      fs.writeFileSync(junk, 'not a zip at all');
      const run = await runCli(['restore', '--from', junk, '--out', path.join(dir, 'out')]);
      expect([run.code, run.stderr]).toEqual([EXIT_CODES.BAD_INPUT, 'cairn: junk.zip is not an encrypted export of a vault (not a zip file).']);
      const missing = await runCli(['restore', '--from', path.join(dir, 'none.zip'), '--out', path.join(dir, 'out')]);
      expect(missing.code).toBe(EXIT_CODES.BAD_INPUT);
      expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('[R87] the encrypted export', () => {
  it('holds the manifest, runs named by their first seq in 10 digits and blobs, stored not deflated; reads back as items', async () => {
    const chunks: Uint8Array[] = [];
    const out = new WritableStream<Uint8Array>({ write: (c) => void chunks.push(c) });
    const run = { format: 'cairn-vault-history' as const, version: 1 as const, vaultId: 'v1', seqFrom: 1, seqTo: 1, ops: [] };
    const blob = new Uint8Array([1, 2, 3, 4, 5]);
    await writeEncryptedExport(out, { vaultId: 'v1', runs: [run], blobs: [{ blobId: 'b1', data: blob }], exportedAt: 42 });
    const zip = new Blob(chunks as BlobPart[]);
    const entries = await new ZipReader(new BlobReader(zip)).getEntries();
    expect(entries.map((e) => [e.filename, e.compressionMethod])).toEqual([
      ['cairn-export.json', 0],
      ['history/0000000001.json', 0],
      ['blobs/b1', 0],
    ]);
    const source = await exportSource(zip, 'v1.zip');
    expect(source.manifest).toEqual({ format: 'cairn-vault-export', version: 1, vaultId: 'v1', headSeq: 1, exportedAt: 42 });
    const items = [];
    for await (const item of source.fileItems('v1', 'b1')) {
      const parts: Uint8Array[] = [];
      for await (const part of await item.open()) parts.push(part);
      items.push([item.size, [...Buffer.concat(parts)]]);
    }
    expect(items).toEqual([[5, [1, 2, 3, 4, 5]]]);
    // Another vault's id finds nothing in it.
    for await (const _ of source.historyItems('v2')) throw new Error('an item of another vault');
    await expect(exportSource(new Blob(['PK junk']), 'x.zip')).rejects.toBeInstanceOf(RestoreError);
  });
});
