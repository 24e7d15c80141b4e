// BENCH_SERVER_PROFILE=dir (tests/bench/appSession.ts): preloaded into the bench's server with
// --require, it records a V8 CPU profile of the whole process and writes it to that dir on exit
// (Node 20 refuses --cpu-prof in NODE_OPTIONS). Open the .cpuprofile in Chromium's DevTools.
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_SERVER_PROFILE;
const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
session.post('Profiler.start');
process.on('exit', () => {
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    const name = path.basename(process.argv[process.argv.length - 1] || 'node');
    fs.writeFileSync(path.join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
