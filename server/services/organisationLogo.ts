/**
 * An organisation's logo (spec 001 section 5: JPG, PNG or SVG, at most 1 MB; SYNC_SPEC R124). The
 * schema admits only `data:image/(png|jpeg|svg+xml);base64,` URLs; this checks that the bytes are
 * what the type says and that an SVG is a picture and nothing more. The app shows logos only as
 * <img>, where an SVG cannot run anything, but a logo is also served signed out to every visitor
 * of a subdomain and may be opened on its own: so an SVG that could script, load or embed anything
 * is refused rather than cleaned (a cleaned file would not be the one the admin chose, silently).
 */
import { ApiError } from '../../src/protocol/errors';
import { ORGANISATION_LIMITS } from '../../src/protocol/organisations';

export const LOGO_REFUSED = 'The logo must be a JPG, PNG or SVG image of at most 1 MB.';
export const SVG_REFUSED = 'This SVG logo contains scripts, event handlers or outside references. Save it as a plain SVG, PNG or JPG and try again.';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

/** What an SVG may not hold: anything that runs, loads or embeds (checked on the lower-cased text). */
const SVG_DANGERS: RegExp[] = [
  /<\s*script/,
  /<\s*foreignobject/,
  /<\s*(iframe|embed|object|audio|video|animate|set|handler|listener)\b/,
  /<!\s*(doctype|entity)/,
  /\son[a-z]+\s*=/,
  /javascript\s*:/,
  /vbscript\s*:/,
  /@import/,
  // Links and url() may only point inside the file ('#id'), or be an embedded raster picture.
  /(?:href|src)\s*=\s*["']?\s*(?!#|data:image\/(?:png|jpeg|gif|webp);)[^"'\s]/,
  /url\(\s*["']?\s*[^"'#\s)]/,
  /<\?xml-stylesheet/,
];

function startsWith(bytes: Buffer, magic: number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

/** Throws VALIDATION_FAILED unless `dataUrl` (already schema-checked) is a safe logo. */
export function assertSafeLogo(dataUrl: string): void {
  const match = /^data:image\/(png|jpeg|svg\+xml);base64,(.*)$/.exec(dataUrl);
  if (!match) throw refusal(LOGO_REFUSED);
  const [, type, payload = ''] = match;
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length === 0 || bytes.length > ORGANISATION_LIMITS.LOGO_BYTES_MAX) throw refusal(LOGO_REFUSED);
  if (type === 'png' && !startsWith(bytes, PNG)) throw refusal(LOGO_REFUSED);
  if (type === 'jpeg' && !startsWith(bytes, JPEG)) throw refusal(LOGO_REFUSED);
  if (type === 'svg+xml') assertPlainSvg(bytes);
}

function assertPlainSvg(bytes: Buffer): void {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  // The xmlns declarations are the only outside addresses a plain SVG needs.
  const withoutNamespaces = text.toLowerCase().replace(/\sxmlns(:[a-z]+)?\s*=\s*("[^"]*"|'[^']*')/g, ' ');
  if (SVG_DANGERS.some((danger) => danger.test(withoutNamespaces))) throw refusal(SVG_REFUSED);
  // A picture: optional XML declaration and comments, then the <svg> root.
  const body = text.replace(/^\s*(<\?xml[^>]*\?>)?\s*(<!--[\s\S]*?-->\s*)*/, '');
  if (!/^<svg[\s>]/i.test(body) || !/<\/svg>\s*$/i.test(body)) throw refusal(LOGO_REFUSED);
}

function refusal(message: string): ApiError {
  return new ApiError('VALIDATION_FAILED', message, [{ path: 'logo', message }]);
}
