/**
 * The invoice as a PDF (issue 21; SYNC_SPEC R116), drawn with pdf-lib (docs/decisions.md, "Invoices
 * are PDFs drawn with pdf-lib"): the invoice number, date and status, the operator's name and
 * payment details (INVOICE_ISSUER, INVOICE_PAYMENT_DETAILS), the customer's billing details, the
 * lines, subtotal, discount, VAT 20% included and the total in the invoice's currency.
 *
 * Only the standard Helvetica font is used, so the PDF needs no font file and stays small. Its
 * encoding (WinAnsi) covers Latin-1 and a few more letters; any other character a customer typed
 * (a Polish Ł, Greek, Chinese, an emoji) is written without its accent when it has one ('ő' → 'o'),
 * else as '?', so a name can never stop an invoice from being drawn.
 */
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { formatPrice } from '../../src/domain/planPricing';
import { type BillingDetails, type Invoice, VAT_PERCENT } from '../../src/protocol/billing';

/** Who issues the invoices and how to pay them (INVOICE_ISSUER, INVOICE_PAYMENT_DETAILS). */
export interface InvoiceIssuer {
  name: string;
  /** Lines of payment details (bank, IBAN, reference rule), in order; none: the PDF says to ask. */
  paymentDetails: readonly string[];
}

export interface InvoicePdfInput {
  invoice: Invoice;
  /** Milliseconds; null while open. */
  paidAt: number | null;
  /** The account's billing details; null if none are saved (not possible for an issued invoice today). */
  customer: BillingDetails | null;
  issuer: InvoiceIssuer;
}

/** A4 in points. */
const PAGE: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const SIZE = 10;
const LINE = 14;

/** Letters whose accent is not a combining mark, so NFKD does not take it off. */
const BARE_LETTERS: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŀ: 'L', ŀ: 'l', Ŧ: 'T', ŧ: 't' };

/**
 * `text` in characters `font` can encode: each other character without its accents when that is
 * enough, else '?'. Control characters (a pasted newline) become spaces.
 */
export function toFontText(text: string, font: PDFFont): string {
  const encodable = (value: string) => {
    try {
      font.encodeText(value);
      return true;
    } catch {
      return false;
    }
  };
  let out = '';
  for (const char of text.normalize('NFC')) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f-\u009f]/.test(char)) out += ' ';
    else if (encodable(char)) out += char;
    else {
      const bare = BARE_LETTERS[char] ?? char.normalize('NFKD').replace(/\p{M}+/gu, '');
      out += bare.length > 0 && encodable(bare) ? bare : '?';
    }
  }
  return out;
}

/** Splits `text` into lines no wider than `width` at `size`, at spaces (a longer word is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const candidate = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    current = rest;
  }
  if (current) lines.push(current);
  return lines.length > 0 ? lines : [''];
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Draws the invoice on one A4 page (a long list of lines continues on further pages). */
export async function renderInvoicePdf({ invoice, paidAt, customer, issuer }: InvoicePdfInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const created = invoice.created * 1000;
  pdf.setTitle(toFontText(`Invoice ${invoice.number}`, regular));
  pdf.setAuthor(toFontText(issuer.name, regular));
  pdf.setCreator('Cairn');
  pdf.setProducer('Cairn (pdf-lib)');
  // The PDF's dates are the invoice's, so the same invoice downloads as the same bytes.
  pdf.setCreationDate(new Date(created));
  pdf.setModificationDate(new Date(paidAt ?? created));

  let page: PDFPage = pdf.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const width = PAGE[0] - 2 * MARGIN;
  const right = PAGE[0] - MARGIN;
  const grey = rgb(0.35, 0.35, 0.35);

  const newPageIfFull = () => {
    if (y < MARGIN + LINE) {
      page = pdf.addPage(PAGE);
      y = PAGE[1] - MARGIN;
    }
  };
  const text = (value: string, options: { font?: PDFFont; size?: number; x?: number; color?: ReturnType<typeof rgb>; maxWidth?: number } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? SIZE;
    for (const line of wrap(toFontText(value, font), font, size, options.maxWidth ?? width)) {
      newPageIfFull();
      page.drawText(line, { x: options.x ?? MARGIN, y, size, font, color: options.color ?? rgb(0, 0, 0) });
      y -= size + 4;
    }
  };
  /** A label on the left and an amount ending at the right margin, on one line. */
  const amountRow = (label: string, amount: string, font: PDFFont = regular) => {
    newPageIfFull();
    const safeAmount = toFontText(amount, font);
    page.drawText(toFontText(label, font), { x: MARGIN, y, size: SIZE, font });
    page.drawText(safeAmount, { x: right - font.widthOfTextAtSize(safeAmount, SIZE), y, size: SIZE, font });
    y -= LINE;
  };
  const gap = (points = LINE) => {
    y -= points;
  };
  const price = (minor: number) => formatPrice(minor, invoice.currency);

  text(issuer.name, { font: bold, size: 16 });
  gap(6);
  text(`Invoice ${invoice.number}`, { font: bold, size: 20 });
  gap(4);
  text(`Date: ${isoDate(created)}`);
  text(paidAt === null ? `Status: open. Amount due: ${price(invoice.amount_due)}` : `Status: paid on ${isoDate(paidAt)}`);
  gap();

  text('Billed to', { font: bold });
  if (customer) {
    const place = [customer.zip, customer.city].filter(Boolean).join(' ') + (customer.state ? `, ${customer.state}` : '');
    for (const line of [customer.name, customer.companyName, customer.companyVat ? `Tax ID: ${customer.companyVat}` : '', customer.address, place, customer.country]) {
      if (line) text(line);
    }
  } else {
    text('(no billing details saved)', { color: grey });
  }
  gap();

  text('Description', { font: bold });
  for (const line of invoice.lines) {
    amountRow(line.quantity > 1 ? `${line.description} x ${line.quantity}` : line.description, line.amount < 0 ? `-${price(-line.amount)}` : price(line.amount));
  }
  gap(6);
  amountRow('Subtotal', price(invoice.subtotal));
  amountRow(`Discount${invoice.coupon ? ` (${invoice.coupon})` : ''}`, invoice.discount > 0 ? `-${price(invoice.discount)}` : price(0));
  amountRow(`VAT (${VAT_PERCENT}% included)`, price(invoice.total_tax));
  amountRow(`Total (${invoice.currency.toUpperCase()})`, price(invoice.total), bold);
  gap();

  text('Payment', { font: bold });
  if (paidAt !== null) {
    text(`Paid on ${isoDate(paidAt)}. Thank you.`);
  } else if (issuer.paymentDetails.length > 0) {
    text(`Please pay ${price(invoice.amount_due)} by bank transfer, quoting ${invoice.number}:`);
    for (const line of issuer.paymentDetails) text(line);
  } else {
    text(`Please ask ${issuer.name} how to pay, quoting ${invoice.number}.`);
  }

  return pdf.save();
}
