/** Constant-time comparison of secrets, so a mismatch's position cannot be learned from response timing. */

const encoder = new TextEncoder();

/** Compares two byte arrays in time that depends only on their lengths. */
export function constantTimeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  const length = Math.max(a.length, b.length);
  for (let index = 0; index < length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

/** Compares two strings through their SHA-256 digests, so not even their lengths leak. */
export async function constantTimeEqualStrings(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(a)),
    crypto.subtle.digest('SHA-256', encoder.encode(b)),
  ]);
  return constantTimeEqualBytes(new Uint8Array(left), new Uint8Array(right));
}
