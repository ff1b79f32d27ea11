/** What global-setup.ts hands the specs (through the environment, which Playwright's workers inherit). */

export const ENV = {
  baseUrl: 'E2E_BASE_URL',
  dataDir: 'E2E_DATA_DIR',
  password: 'E2E_ADMIN_PASSWORD',
  clientSecret: 'E2E_CLIENT_SECRET',
  serviceLog: 'E2E_SERVICE_LOG',
} as const;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests with \`npm run test:e2e\` (playwright.config.ts starts the service)`);
  return value;
}

export const service = {
  get url() {
    return required(ENV.baseUrl);
  },
  get adminPassword() {
    return required(ENV.password);
  },
  get clientSecret() {
    return required(ENV.clientSecret);
  },
};
