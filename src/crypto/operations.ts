/**
 * Signed vault operations (DESIGN.md section 3): the author's Ed25519 signature over
 * `canonicalBytes(operationSigningPayload(op))` (src/protocol/vaults.ts). The server checks the same
 * bytes with node:crypto (server/services/signatures.ts), every member checks them here, so neither
 * the server nor another member can forge or alter an action. tests/fixtures/operation.json pins it.
 */
import { operationSigningPayload, type Operation, type UnsignedOperation } from '../protocol/vaults';
import { signPayload, verifyPayload } from './signatures';

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
