/**
 * The webhook transport port: one HTTP POST to a URL over a connection to an address the URL guard has already
 * checked (never a fresh DNS answer), no redirects followed, a deadline, and at most a few KB of the answer read.
 */
import { defineCapability } from '../kernel/define-capability.ts';

export interface WebhookPost {
  url: URL;
  /** The checked address to connect to; TLS still verifies the certificate against the URL's host name. */
  address: string;
  headers: Record<string, string>;
  body: string;
  timeoutMillis: number;
  /** Bytes of the answer kept; the rest is not read. */
  maxResponseBytes: number;
}

export type WebhookPostResult =
  | { kind: 'answered'; status: number; excerpt: string }
  | { kind: 'timeout' }
  | { kind: 'error'; message: string };

export type WebhookTransport = (post: WebhookPost) => Promise<WebhookPostResult>;

export const webhookTransportPort = defineCapability<WebhookTransport>({ id: 'port.webhookTransport', cardinality: 'one' });
