/**
 * The text a PDF shows, read back with pdf-lib itself (no second PDF library): each page's content
 * streams are inflated and the strings of its text-showing operators (`<hex> Tj`, `(literal) Tj`)
 * decoded. Enough for the invoices Cairn draws with the standard fonts (WinAnsi: one byte a
 * character, read as Windows-1252, whose € is 0x80); it throws on
 * a file pdf-lib cannot parse, so a test using it also proves the PDF loads.
 */
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFRef } from 'pdf-lib';

/** Windows-1252's 0x80-0x9F (Node's small-ICU TextDecoder reads them as Latin-1 control codes); the rest is Latin-1. */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWinAnsi(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => (byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80]! : String.fromCharCode(byte))).join('');
}

/** Bytes of a content stream, inflated when it is compressed. */
function streamBytes(stream: unknown): Uint8Array {
  if (stream instanceof PDFRawStream) return decodePDFRawStream(stream).decode();
  throw new Error('Unexpected content stream type');
}

/** The PDF's text, one string per text-showing operator, pages in order. */
export async function pdfStrings(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  const strings: string[] = [];
  for (const page of pdf.getPages()) {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => pdf.context.lookup(ref as PDFRef)) : [contents];
    for (const stream of streams) {
      const ops = Buffer.from(streamBytes(stream)).toString('latin1');
      for (const match of ops.matchAll(/<([0-9A-Fa-f\s]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
        if (match[1] !== undefined) strings.push(decodeWinAnsi(Buffer.from(match[1].replace(/\s+/g, ''), 'hex')));
        else strings.push(match[2]!.replace(/\\(.)/g, '$1'));
      }
    }
  }
  return strings;
}

/** All of the PDF's text joined by newlines. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  return (await pdfStrings(bytes)).join('\n');
}
