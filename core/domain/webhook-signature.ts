/** The spec's webhook signature: `t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the secret. */

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

export async function signatureHeader(secret: string, rawBody: string, unixSeconds: number): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${unixSeconds}.${rawBody}`));
  return `t=${unixSeconds},v1=${hex(mac)}`;
}

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export function generateWebhookSecret(): string {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...raw)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}
