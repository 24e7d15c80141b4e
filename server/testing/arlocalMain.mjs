// Runs arlocal in its own process (tests): `node arlocalMain.mjs <port> <dbPath>`. An arlocal
// stopped and started again inside one process hangs, and killing a process is a truer outage.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const arlocalModule = require('arlocal');
const ArLocal = arlocalModule.default ?? arlocalModule;
const [port, dbPath] = process.argv.slice(2);
const arlocal = new ArLocal(Number(port), false, dbPath, true);
await arlocal.start();
process.stdout.write('ready\n');
