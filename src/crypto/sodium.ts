/**
 * Lazy loader for libsodium (sumo build). Import this only from the crypto worker, the server and
 * tests: the sumo build is about 440 kB of WebAssembly-in-JS and must stay out of the UI bundle.
 */
import * as sodiumModule from 'libsodium-wrappers-sumo';

/** The initialised libsodium API. */
export type Sodium = typeof sodiumModule.default;

let loading: Promise<Sodium> | undefined;

/**
 * Resolves to libsodium once its WebAssembly is initialised. Safe to call many times; the first
 * call starts loading. Bundlers and Node disagree on how an ESM build's default export meets a
 * namespace import (TOOLCHAIN pitfall 5), so both shapes are accepted.
 */
export function loadSodium(): Promise<Sodium> {
  loading ??= (async () => {
    const mod = sodiumModule as unknown as { default?: Sodium } & Sodium;
    const sodium = mod.default ?? mod;
    await sodium.ready;
    return sodium;
  })();
  return loading;
}
