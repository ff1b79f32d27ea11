/** The API token format: `psk_` + 40 random base62 characters + a 6-character CRC32 checksum, so scanners and our guard reject typos offline. */

export const tokenPrefix = 'psk_';
const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomLength = 40;
const checksumLength = 6;
export const tokenPattern = new RegExp(`^${tokenPrefix}[0-9A-Za-z]{${randomLength + checksumLength}}$`);

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = alphabet[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

const checksumOf = (body: string) => base62(crc32(body), checksumLength);

export function generateApiToken(): string {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let random = '';
  while (random.length < randomLength) {
    for (const byte of crypto.getRandomValues(new Uint8Array(64))) {
      if (byte < 248 && random.length < randomLength) random += alphabet[byte % 62];
    }
  }
  const body = `${tokenPrefix}${random}`;
  return `${body}${checksumOf(body)}`;
}

/** True for a well-formed token whose checksum matches; says nothing about whether it exists. */
export function hasValidChecksum(token: string): boolean {
  if (!tokenPattern.test(token)) return false;
  const body = token.slice(0, -checksumLength);
  return checksumOf(body) === token.slice(-checksumLength);
}

export async function hashApiToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What a list may show of a token: the prefix and the first random characters. */
export const tokenHint = (token: string) => token.slice(0, tokenPrefix.length + 4);
