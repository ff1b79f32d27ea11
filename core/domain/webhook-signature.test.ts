/** Our signature against an implementation we did not write: the official stripe package's webhook scheme (t=, v1= over "<t>.<body>"). */
import { describe, expect, test } from 'bun:test';
import Stripe from 'stripe';
import { generateWebhookSecret, signatureHeader } from './webhook-signature.ts';

const body = JSON.stringify({ id: 'evt-1', event: 'test.completed', created_at: '2026-11-22T10:00:00.000Z', tenant_id: 't', data: { ü: 'ünïcode', n: 1 } });

describe('webhook signature', () => {
  test('equals the header stripe generates for the same secret, body and time', async () => {
    const secret = generateWebhookSecret();
    const t = 1_800_000_000;
    const ours = await signatureHeader(secret, body, t);
    // Bun loads stripe's web build, whose crypto is async: the *Async twins run the same scheme.
    expect(ours).toBe(await Stripe.webhooks.generateTestHeaderStringAsync({ payload: body, secret, timestamp: t }));
    expect(ours).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
  });

  test('stripe constructEvent accepts our header over the raw body and refuses a wrong secret, body or old time', async () => {
    const secret = generateWebhookSecret();
    const now = Math.floor(Date.now() / 1000);
    const header = await signatureHeader(secret, body, now);
    const event = (await Stripe.webhooks.constructEventAsync(body, header, secret)) as unknown as { id: string; event: string };
    expect(event).toMatchObject({ id: 'evt-1', event: 'test.completed' });
    await expect(Stripe.webhooks.constructEventAsync(body, header, generateWebhookSecret())).rejects.toThrow('No signatures found matching');
    await expect(Stripe.webhooks.constructEventAsync(body.replace('1}', '2}'), header, secret)).rejects.toThrow('No signatures found matching');
    const old = await signatureHeader(secret, body, now - 3600);
    await expect(Stripe.webhooks.constructEventAsync(body, old, secret, 300)).rejects.toThrow('Timestamp outside the tolerance zone');
  });

  test('secrets are whsec_ and 32 random bytes, never repeated', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateWebhookSecret));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});
