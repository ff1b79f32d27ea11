/** Short, human-friendly public ids for tasks (`run-` + 8 Crockford base32 characters: no I, L, O, U to misread). */

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

export function newPublicId(): string {
  let id = '';
  for (const byte of crypto.getRandomValues(new Uint8Array(8))) id += alphabet[byte & 31];
  return `run-${id}`;
}

export const isPublicId = (value: string) => /^run-[0-9a-hjkmnp-tv-z]{8}$/.test(value);
