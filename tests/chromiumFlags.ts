/**
 * Flags for Debian's headless Chromium here (TOOLCHAIN.md): without the background-networking
 * ones, Chromium keeps trying hosts this machine's closed network refuses.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
