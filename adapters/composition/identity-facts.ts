/**
 * What the service's identity provider is, worked out at boot for the core and the identity plugins: the embedded
 * provider on our own origin (`/auth`, a client secret generated once for every replica, an `admin` user) or an
 * external one (AUTH_URL, AUTH_CLIENT_SECRET, BOOTSTRAP_ADMIN_USERNAME). The core knows none of this; it asks.
 */
import type { Config } from '../../config/schema.ts';
import type { BootFacts, GeneratedSecrets } from '../../core/boot-service.ts';

/** The data file that keeps the embedded provider's generated client secret (shared by every replica). */
export const CLIENT_SECRET_FILE = 'auth-client-secret';

export async function identityFacts(config: Readonly<Config>, secrets: GeneratedSecrets): Promise<BootFacts> {
  const embedded = !config.authUrl;
  return {
    authUrl: config.authUrl ?? `${config.publicUrl}/auth`,
    // Only the embedded provider can use a generated secret; an external one has its own (AUTH_CLIENT_SECRET).
    clientSecret: embedded ? await secrets.get(CLIENT_SECRET_FILE, config.authClientSecret) : (config.authClientSecret ?? ''),
    // With the embedded provider there is always an admin: the configured one, or `admin` with a generated password.
    bootstrapUsername: config.bootstrapAdminUsername ?? (embedded ? 'admin' : null),
  };
}
