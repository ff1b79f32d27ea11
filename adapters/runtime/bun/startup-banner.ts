/** The few lines `npm start` shows a person at a terminal once it is ready: where, how to sign in, what can run. */

export interface BannerFacts {
  publicUrl: string;
  /** The first start's admin password file, while it exists. */
  passwordFile: string | null;
  /** The local agent's tool report (formatToolReport), null without a local agent. */
  toolReport: string | null;
}

export function startupBanner(facts: BannerFacts): string {
  const lines = [
    '',
    `  Loadplane is ready on ${facts.publicUrl}`,
    `    API ${facts.publicUrl}/api/v1   API docs ${facts.publicUrl}/swagger-ui/`,
    facts.passwordFile
      ? `    sign in as admin with the password in ${facts.passwordFile} (README: Quick start)`
      : '    sign in with your identity provider account (README: Quick start)',
  ];
  if (facts.toolReport) {
    lines.push('', ...facts.toolReport.split('\n').map((line) => `  ${line}`));
    lines.push('    missing engines: bash scripts/install-engines <engine>; the built-in http tool needs none');
  }
  lines.push('');
  return lines.join('\n');
}
