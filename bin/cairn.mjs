#!/usr/bin/env node
// The `cairn` command (README, "Restore from the network"): TypeScript run through tsx, so it
// works right after `npm ci` with no build step and uses src/crypto and src/protocol themselves.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
