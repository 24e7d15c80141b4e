#!/usr/bin/env node
// The `cairn` command (README, "The cairn command"): TypeScript run through tsx, so it works
// right after `npm ci` with no build step and uses src/crypto, src/protocol and src/sync themselves.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
// The first Ctrl-C asks a running upload to stop and save where it is; a second one quits at once.
const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort());
const code = await main(process.argv.slice(2), { stdin: process.stdin, stderr: process.stderr, stdout: process.stdout, signal: interrupt.signal });
// The sync client's timers and the in-memory database would keep the process alive after the work.
process.exit(code);
