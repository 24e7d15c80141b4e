import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../src/protocol/errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Vite writes content-hashed names (`index-B5xq1c9Z.js`) to assets/; workbox adds `workbox-<hash>.js`. */
const HASHED_FILE = /[.-][A-Za-z0-9_-]{8,}\.(?:js|mjs|css|wasm|woff2?|ttf|png|jpe?g|svg|webp|ico|map)$/;

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * Serves the built client from `staticDir` when it holds an index.html: hashed assets cached for a
 * year, everything else (index.html, sw.js, the manifest) revalidated on every load so a new
 * release is picked up. Any other GET outside /api answers index.html (the SPA's routes); an
 * unknown /api path answers 404 NOT_FOUND JSON.
 */
export async function registerClientFiles(app: FastifyInstance, staticDir: string): Promise<void> {
  const hasClient = fs.existsSync(path.join(staticDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: staticDir,
      cacheControl: false,
      serveDotFiles: false,
      setHeaders: (reply, filePath) => {
        const relative = path.relative(staticDir, filePath).split(path.sep).join('/');
        const hashed = relative.startsWith('assets/') || HASHED_FILE.test(relative);
        reply.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && !isApiPath(pathname) && !pathname.startsWith('/assets/');
    if (!hasClient || !isPage) throw new ApiError('NOT_FOUND', 'Not found');
    return reply.sendFile('index.html');
  });
}
