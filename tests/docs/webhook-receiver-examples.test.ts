/** The receiver examples of docs/webhooks.md (TypeScript and Python) verify a real signature and refuse a forged or old one. */
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateWebhookSecret, signatureHeader } from '../../core/domain/webhook-signature.ts';
import { readExamples } from './markdown-examples.ts';

const examples = readExamples('docs/webhooks.md').examples.filter((example) => example.section === 'Verifying a delivery');
const block = (language: string) => {
  const example = examples.find((candidate) => candidate.lang === language);
  if (!example) throw new Error(`no ${language} example in docs/webhooks.md, "Verifying a delivery"`);
  return example.code;
};

const secret = generateWebhookSecret();
const body = JSON.stringify({ id: 'e1', event: 'test.completed', created_at: '2026-11-22T00:00:00.000Z', tenant_id: 'w', data: { note: 'ünïcode' } });

describe('docs/webhooks.md receiver examples', () => {
  test('TypeScript', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'readme-ts-'));
    try {
      await writeFile(join(dir, 'verify.ts'), block('ts'));
      const { verifyLoadplane } = (await import(join(dir, 'verify.ts'))) as { verifyLoadplane: (raw: string, header: string, secret: string) => boolean };
      const now = Math.floor(Date.now() / 1000);
      expect(verifyLoadplane(body, await signatureHeader(secret, body, now), secret)).toBe(true);
      expect(verifyLoadplane(body + ' ', await signatureHeader(secret, body, now), secret)).toBe(false);
      expect(verifyLoadplane(body, await signatureHeader(generateWebhookSecret(), body, now), secret)).toBe(false);
      expect(verifyLoadplane(body, await signatureHeader(secret, body, now - 3600), secret)).toBe(false);
      expect(verifyLoadplane(body, 'garbage', secret)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('Python', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases = [
      [body, await signatureHeader(secret, body, now), true],
      [`${body} `, await signatureHeader(secret, body, now), false],
      [body, await signatureHeader(generateWebhookSecret(), body, now), false],
      [body, await signatureHeader(secret, body, now - 3600), false],
      [body, 'garbage', false],
    ] as const;
    const harness = `${block('python')}
import json, sys
cases = json.load(sys.stdin)
print(json.dumps([verify_loadplane(raw.encode(), header, secret) for raw, header, secret in cases]))
`;
    const run = spawnSync('python3', ['-c', harness], { input: JSON.stringify(cases.map(([raw, header]) => [raw, header, secret])), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(cases.map(([, , expected]) => expected));
  });
});
