/**
 * Structured logs everywhere (issue 20): the server writes through pino (app.log, or
 * server/logger.ts before the app exists), one JSON object per line that a log collector can
 * parse and filter by level. A bare `console.` call would print a line outside that stream.
 * Terminal tools (server/ops, server/admin) print for the operator and are left out, as are tests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SERVER = path.dirname(fileURLToPath(import.meta.url));
const LEFT_OUT = ['testing', 'ops', 'admin'].map((dir) => path.join(SERVER, dir) + path.sep);

function serverSources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return LEFT_OUT.includes(full + path.sep) ? [] : serverSources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

it('no server module outside tests and terminal tools writes with console', () => {
  const files = serverSources(SERVER);
  expect(files.map((f) => path.relative(SERVER, f))).toEqual(expect.arrayContaining(['main.ts', 'app.ts', path.join('db', 'openDatabase.ts')]));
  const offenders = files.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (/\bconsole\s*\./.test(line) ? [`${path.relative(SERVER, file)}:${index + 1}: ${line.trim()}`] : [])),
  );
  expect(offenders).toEqual([]);
});
