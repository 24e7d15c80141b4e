/**
 * Lazy loader for `@serenity-kit/opaque` (OPAQUE, RFC 9807, WebAssembly inlined in JS). Used by
 * the crypto worker (client side) and the server (server side). Like libsodium it is large: keep
 * it out of the UI bundle.
 */
import * as opaqueModule from '@serenity-kit/opaque';

/** The initialised OPAQUE API: `client.*` and `server.*`. */
export type Opaque = Pick<typeof opaqueModule, 'client' | 'server' | 'ready'>;

let loading: Promise<Opaque> | undefined;

/**
 * Resolves once the OPAQUE WebAssembly is ready. Node loads the package's CommonJS build and
 * bundlers its ESM build; the namespace's shape differs (TOOLCHAIN pitfall 5), so both are accepted.
 */
export function loadOpaque(): Promise<Opaque> {
  loading ??= (async () => {
    const mod = opaqueModule as unknown as Opaque & { default?: Opaque };
    const opaque = mod.client ? mod : mod.default;
    if (!opaque?.client) throw new Error('loadOpaque: unexpected module shape');
    await opaque.ready;
    return opaque;
  })();
  return loading;
}
