import { describe, expect, it } from 'vitest';
import {
  decodeFileNameHeader,
  importedFileName,
  importedMimeType,
  isImportableTxId,
  TX_ID_ALPHABET_TEXT,
  TX_ID_LENGTH_TEXT,
  txIdError,
} from './importTxRules';

const ID_43 = 'bNbA3TEQVL60xlgCcqdz4ZPHFZ711cZ3hmkpGttDt_U';

describe('import by network transaction (spec 000 section 5)', () => {
  it('accepts exactly 43 base64url characters', () => {
    expect(ID_43).toHaveLength(43);
    expect(isImportableTxId(ID_43)).toBe(true);
    expect(txIdError(ID_43)).toBeNull();
    expect(isImportableTxId('-_'.repeat(21) + 'a')).toBe(true);
  });

  it('refuses 42 and 44 characters with the length rule as the error', () => {
    expect(isImportableTxId(ID_43.slice(0, 42))).toBe(false);
    expect(txIdError(ID_43.slice(0, 42))).toBe(TX_ID_LENGTH_TEXT);
    expect(isImportableTxId(`${ID_43}x`)).toBe(false);
    expect(txIdError(`${ID_43}x`)).toBe(TX_ID_LENGTH_TEXT);
    expect(TX_ID_LENGTH_TEXT).toBe('The transaction id must be exactly 43 characters.');
  });

  it('refuses characters outside base64url, even at 43 characters', () => {
    const withPlus = `${ID_43.slice(0, 42)}+`;
    expect(isImportableTxId(withPlus)).toBe(false);
    expect(txIdError(withPlus)).toBe(TX_ID_ALPHABET_TEXT);
    expect(isImportableTxId(` ${ID_43.slice(1)}`)).toBe(false);
    expect(isImportableTxId(`${ID_43.slice(0, 42)}=`)).toBe(false);
  });

  it('shows no error on an empty field, which still cannot be submitted', () => {
    expect(txIdError('')).toBeNull();
    expect(isImportableTxId('')).toBe(false);
  });
});

describe('the imported file from the gateway tags', () => {
  it('takes the File-Name tag, else the transaction id', () => {
    expect(importedFileName('field notes.pdf', ID_43)).toBe('field notes.pdf');
    expect(importedFileName(null, ID_43)).toBe(ID_43);
    expect(importedFileName('   ', ID_43)).toBe(ID_43);
  });

  it('never makes a path, a control character or a dot entry of a name', () => {
    expect(importedFileName('../../etc/passwd', ID_43)).toBe('etcpasswd');
    expect(importedFileName('a\\b\u0000c\nd.txt', ID_43)).toBe('abcd.txt');
    expect(importedFileName('.bashrc', ID_43)).toBe('bashrc');
    expect(importedFileName('...', ID_43)).toBe(ID_43);
    expect(importedFileName('x'.repeat(300), ID_43)).toHaveLength(255);
  });

  it('keeps a valid MIME type without parameters and falls back to octet-stream', () => {
    expect(importedMimeType('text/plain; charset=utf-8')).toBe('text/plain');
    expect(importedMimeType('Image/PNG')).toBe('image/png');
    expect(importedMimeType('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(importedMimeType(null)).toBe('application/octet-stream');
    expect(importedMimeType('not a type')).toBe('application/octet-stream');
    expect(importedMimeType('text/html<script>')).toBe('application/octet-stream');
  });

  it('decodes the URI-encoded name header, a malformed one counting as absent', () => {
    expect(decodeFileNameHeader(encodeURIComponent('résumé 2026.pdf'))).toBe('résumé 2026.pdf');
    expect(decodeFileNameHeader('%E0%A4%A')).toBeNull();
    expect(decodeFileNameHeader(null)).toBeNull();
  });
});
