/**
 * A real arlocal gateway for a vitest suite: suiteGateway starts a TestGateway (testGateway.ts,
 * free of vitest so Playwright specs and benches use it too) before the suite and removes it after.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { JWKInterface } from '../arweave/arweaveClient';
import { readWallet } from '../arweave/wallet';
import { TestGateway } from './testGateway';

export { TestGateway };

/**
 * A TestGateway started before the suite's tests (in a fresh temp folder named after `prefix`)
 * and stopped and removed after them, with its funded relay wallet. `then` runs after the start
 * (e.g. to build the app that relays to it).
 */
export function suiteGateway(prefix: string, then?: () => Promise<void>): { readonly gateway: TestGateway; readonly wallet: JWKInterface } {
  let gateway: TestGateway | null = null;
  let wallet: JWKInterface | null = null;
  let dir = '';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    gateway = new TestGateway(dir);
    await gateway.start();
    wallet = readWallet(gateway.walletFile);
    await then?.();
  });
  afterAll(async () => {
    await gateway?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get gateway() {
      if (!gateway) throw new Error('The suite gateway starts before the tests');
      return gateway;
    },
    get wallet() {
      if (!wallet) throw new Error('The suite gateway starts before the tests');
      return wallet;
    },
  };
}
