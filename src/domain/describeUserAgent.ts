/**
 * A device description for the sessions list (Account > Security, SYNC_SPEC R80) from a
 * User-Agent header: "Chromium on Linux", "Safari on iPhone". Only the browser family and the
 * system are named, never versions, so the list reads the same after every browser update. The
 * order of the checks matters: Edge and Opera say "Chrome" too, Chrome says "Safari", and iPad
 * and Android devices say "Mac OS X" or "Linux".
 */

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\b(Chrome|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

/** Headless Chromium names itself HeadlessChrome; it is still Chromium for the user. */
const HEADLESS = /\bHeadlessChrome\//;

export const UNKNOWN_DEVICE = 'Unknown device';

export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return UNKNOWN_DEVICE;
  const browser = HEADLESS.test(userAgent) ? 'Chromium' : BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? UNKNOWN_DEVICE;
}
