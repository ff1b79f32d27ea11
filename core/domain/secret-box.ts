/** Encrypts secrets at rest with AES-256-GCM under a key derived from SECRET_KEY (web crypto only, so every runtime agrees). */

export interface SecretBox {
  seal(plaintext: string): Promise<string>;
  open(sealed: string): Promise<string>;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/**
 * `v1.<iv>.<ciphertext+tag>` in base64. The AES key is SHA-256 of "loadplane secret-box v1:" + SECRET_KEY, so the
 * operator's key of any length becomes 256 bits and this use of it is kept apart from any other.
 */
export async function createSecretBox(secretKey: string): Promise<SecretBox> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`loadplane secret-box v1:${secretKey}`));
  const key = await crypto.subtle.importKey('raw', digest, 'AES-GCM', false, ['encrypt', 'decrypt']);
  return {
    async seal(plaintext) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(plaintext)));
      return `v1.${toBase64(iv)}.${toBase64(sealed)}`;
    },
    async open(sealed) {
      const [version, iv, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !data) throw new Error('sealed secret has an unknown format');
      const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(iv) }, key, fromBase64(data));
      return new TextDecoder().decode(plain);
    },
  };
}
