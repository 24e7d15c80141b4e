#!/usr/bin/env node
// `npm start`: builds the client when dist/ is missing or older than its sources, then runs the
// server (migrations run at server start). Signals are forwarded so SIGTERM drains requests.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLIENT_SOURCES = ['src', 'workers', 'public', 'index.html', 'vite.config.ts', 'package.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

// CAIRN_CLIENT_DIR: where the built client lives (default dist/); separate builds let several
// checkouts' tests run side by side.
const clientDir = resolve(root, process.env.CAIRN_CLIENT_DIR || 'dist');

function isClientStale() {
  const builtIndex = join(clientDir, 'index.html');
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return CLIENT_SOURCES.some((source) => newestMtime(join(root, source)) > builtAt);
}

if (process.env.CAIRN_SKIP_BUILD !== '1' && isClientStale()) {
  console.log('Building the client (dist/ is missing or stale)...');
  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', clientDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('The client build failed; see the output above.');
    process.exit(build.status ?? 1);
  }
}

// A roomier first old-generation limit: with V8's default, a stream of 4 MiB chunk PUTs kept a
// ~60 MB heap at its limit and ran a full mark-compact about once per chunk (docs/decisions.md).
const NODE_FLAGS = ['--initial-old-space-size=256'];

const server = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', join(root, 'server', 'main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
