/**
 * Signed vault operations (DESIGN.md section 3): the author's Ed25519 signature over
 * `canonicalBytes(operationSigningPayload(op))` (src/protocol/vaults.ts). The server checks the same
 * bytes with node:crypto (server/services/signatures.ts), every member checks them here, so neither
 * the server nor another member can forge or alter an action. tests/fixtures/operation.json pins it.
 */
import { canonicalBytes } from '../protocol/canonical';
import { operationSigningPayload, type Operation, type UnsignedOperation } from '../protocol/vaults';
import { base64UrlToBytes, hexToBytes } from './encoding';
import { signPayload, verifyPayload } from './signatures';
import { type Ed25519Implementation, type SignedMessage, verifyEd25519Many } from './verifyEd25519Many';

/** The unsigned part of an operation, without any `signature` member a caller left on it. */
export function unsignedPart(op: UnsignedOperation | Operation): UnsignedOperation {
  const { signature: _signature, ...unsigned } = op as Operation;
  return unsigned;
}

/**
 * Signs `op` with a 64-byte libsodium Ed25519 secret key. `op.author` must be that key's public
 * key (hex), which the caller ensures: a mismatch yields an operation that nobody accepts.
 */
export async function signOperation(signingPrivateKey: Uint8Array, op: UnsignedOperation): Promise<Operation> {
  const unsigned = unsignedPart(op);
  return { ...unsigned, signature: await signPayload(signingPrivateKey, operationSigningPayload(unsigned)) };
}

/** True when `op.signature` is `op.author`'s signature over the operation. Never throws for bad input. */
export async function verifyOperation(op: Operation): Promise<boolean> {
  try {
    const unsigned = unsignedPart(op);
    return await verifyPayload(unsigned.author, operationSigningPayload(unsigned), op.signature);
  } catch {
    return false;
  }
}

/**
 * `verifyOperation` for a page of pulled operations: one verdict per operation, in order, with the
 * signatures checked together (src/crypto/verifyEd25519Many.ts). Never throws for bad input.
 */
export async function verifyOperations(ops: Operation[], implementation?: Ed25519Implementation): Promise<boolean[]> {
  const EMPTY = new Uint8Array(0);
  const items: SignedMessage[] = ops.map((op) => {
    try {
      const unsigned = unsignedPart(op);
      return { publicKey: hexToBytes(op.author), message: canonicalBytes(operationSigningPayload(unsigned)), signature: base64UrlToBytes(op.signature) };
    } catch {
      // A malformed key or signature, or a body with no canonical encoding: verifies nothing.
      return { publicKey: EMPTY, message: EMPTY, signature: EMPTY };
    }
  });
  return verifyEd25519Many(items, implementation);
}
