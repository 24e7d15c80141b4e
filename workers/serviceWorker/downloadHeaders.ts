/**
 * Headers of a download-stream Response. The file name is the user's, in any script: RFC 6266
 * `filename*` carries it in UTF-8 (RFC 5987 encoding), with a plain ASCII `filename` beside it for
 * clients that ignore the extended form.
 */

/** Lone UTF-16 surrogates (a name can hold them) make encodeURIComponent throw. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** RFC 6266 token / token (a MIME type without parameters); anything else is sent as octet-stream. */
const MIME_TYPE = /^[A-Za-z0-9!#$&^_.+-]{1,127}\/[A-Za-z0-9!#$&^_.+-]{1,127}$/;

/** `attachment; filename="..."; filename*=UTF-8''...` for `fileName`. */
export function attachmentDisposition(fileName: string): string {
  const name = fileName.replace(LONE_SURROGATE, '\uFFFD').replace(/[\u0000-\u001f\u007f]/g, '_');
  // The quoted fallback: printable ASCII without the quote and backslash it would need escaped.
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  // encodeURIComponent leaves ' ( ) * alone; RFC 5987 attr-char does not allow them.
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Headers for a streamed download of `size` plaintext bytes. Never cached (the bytes are the
 * user's decrypted file) and inert if a browser ever rendered it instead of saving it.
 */
export function downloadHeaders(meta: { fileName: string; size: number; mimeType: string }): Headers {
  return new Headers({
    'content-type': MIME_TYPE.test(meta.mimeType) ? meta.mimeType : 'application/octet-stream',
    'content-length': String(meta.size),
    'content-disposition': attachmentDisposition(meta.fileName),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
  });
}
