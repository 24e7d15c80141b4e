/**
 * A local HTTPS webhook receiver for tests (issue 24): a real node:https server on 127.0.0.1 with
 * a self-signed certificate made for the test by openssl, whose certificate the dispatcher is told
 * to trust (`ca`). It records every request and answers what the test says.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface HttpsReceiver {
  /** https://127.0.0.1:{port} */
  origin: string;
  /** The certificate, to trust as the dispatcher's CA. */
  ca: string;
  requests: ReceivedRequest[];
  /** What the receiver answers to each request; 200 "ok" by default. */
  answer: (request: ReceivedRequest) => Answer;
  /** Resolves once `count` requests arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A certificate for 127.0.0.1 and localhost, valid one day. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-receiver-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  const result = { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
  fs.rmSync(dir, { recursive: true, force: true });
  return result;
}

export async function startHttpsReceiver(): Promise<HttpsReceiver> {
  const { key, cert } = selfSignedCertificate();
  const requests: ReceivedRequest[] = [];
  const waiters: (() => void)[] = [];
  const receiver: HttpsReceiver = {
    origin: '',
    ca: cert,
    requests,
    answer: () => ({ status: 200, body: 'ok' }),
    async waitForRequests(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${requests.length} requests of ${count} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return requests.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const answer = receiver.answer(request);
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
