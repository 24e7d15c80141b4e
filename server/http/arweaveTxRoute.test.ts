/**
 * GET /arweave/tx/{txId} and GET /config/arweave against a gateway that serves what an attacker
 * put on the network (SYNC_SPEC R54): a fake gateway at the port the server reads (GraphQL tags
 * and the item's bytes), on loopback like the embedded arlocal.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ARWEAVE_CONTENT_TYPE_HEADER, ARWEAVE_FILE_NAME_HEADER, ArweaveConfig } from '../../src/protocol/arweave';
import { arweaveFor, type JWKInterface } from '../arweave/arweaveClient';
import { arweaveConfigFor } from '../arweave/arweaveConfig';
import { loadOrCreateWallet } from '../arweave/wallet';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectStatus } from '../testing/flows';
import { TEST_ARWEAVE_WALLET } from '../testing/serverProcess';
import { VaultActor } from '../testing/vaults';

const ITEM_ID = 'c2NyaXB0LWl0ZW0tb24tdGhlLW5ldHdvcmstMTIzNDU';
const SCRIPT = Buffer.from("fetch('/api/account', { credentials: 'include' }).then((r) => r.text()).then(steal);\n");

/** A gateway whose one item is a script tagged text/javascript, as anyone may post to Arweave. */
function startHostileGateway(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/graphql') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          data: {
            transaction: {
              id: ITEM_ID,
              tags: [
                { name: 'Content-Type', value: 'text/javascript' },
                { name: 'File-Name', value: 'app.js' },
              ],
            },
          },
        }),
      );
      return;
    }
    if (req.url === `/${ITEM_ID}`) {
      res.setHeader('content-type', 'text/javascript');
      res.setHeader('content-length', SCRIPT.length);
      res.end(SCRIPT);
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describeEachDatabase('the gateway seen from the browser', (env) => {
  let gateway: http.Server;
  let gatewayUrl: string;
  let wallet: JWKInterface;
  let api: ApiClient;
  let owner: VaultActor;

  beforeAll(async () => {
    gateway = await startHostileGateway();
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
    wallet = await loadOrCreateWallet(TEST_ARWEAVE_WALLET, arweaveFor('http://127.0.0.1:1'));
    api = new ApiClient(await env.buildApp({ arweave: { gatewayUrl, wallet, startRelay: false } }));
    owner = await VaultActor.create(env, api);
  });

  afterAll(() => new Promise<void>((resolve) => gateway.close(() => resolve())));

  it('[R54] serves a text/javascript item as an opaque, sandboxed attachment, its type in x-cairn-content-type', async () => {
    const response = await api.app.inject({ method: 'GET', url: `/api/arweave/tx/${ITEM_ID}`, headers: { authorization: `Bearer ${owner.token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(SCRIPT)).toBe(true);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers[ARWEAVE_CONTENT_TYPE_HEADER]).toBe('text/javascript');
    expect(decodeURIComponent(String(response.headers[ARWEAVE_FILE_NAME_HEADER]))).toBe('app.js');
    expect(response.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe('attachment');
  });

  it('[R54] does not publish a loopback gateway, its viewers or its wallet', async () => {
    const response = await api.get('/api/config/arweave');
    expectStatus(response, 200);
    expect(ArweaveConfig.parse(response.body)).toEqual({ gatewayUrl: null, txViewerUrl: null, contractViewerUrl: null });
    const port = String((gateway.address() as AddressInfo).port);
    expect(response.raw).not.toContain(port);
    expect(response.raw).not.toContain('127.0.0.1');
  });
});

it('[R54] a configured public gateway is still published with its viewers', () => {
  expect(arweaveConfigFor('https://arweave.net/', 'addr')).toEqual({
    gatewayUrl: 'https://arweave.net',
    txViewerUrl: 'https://viewblock.io/arweave/tx/{txId}',
    contractViewerUrl: 'https://viewblock.io/arweave/address/addr',
  });
  expect(arweaveConfigFor('https://gateway.example.org', 'addr').gatewayUrl).toBe('https://gateway.example.org');
  for (const local of ['http://127.0.0.1:1984', 'http://localhost:1984/', 'http://[::1]:1984', 'http://127.1.2.3']) {
    expect(arweaveConfigFor(local, 'addr').gatewayUrl).toBeNull();
  }
});
