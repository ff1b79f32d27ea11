/** The sidebar's links: only pages that exist (later pages are added here when they are built). */

export interface NavItem {
  href: string;
  label: string;
}

export const navItems: NavItem[] = [
  { href: '/runs', label: 'Runs' },
  { href: '/tests', label: 'Tests' },
  { href: '/machines', label: 'Machines' },
  { href: '/configs', label: 'Load configs' },
  { href: '/dashboards', label: 'Dashboards' },
  { href: '/git-repos', label: 'Git repositories' },
  { href: '/audit-log', label: 'Audit log' },
  { href: '/settings/workspace', label: 'Workspace settings' },
  { href: '/settings/members', label: 'Members' },
  { href: '/settings/access-controls', label: 'Access controls' },
  { href: '/settings/api-tokens', label: 'API tokens' },
  { href: '/settings/webhooks', label: 'Webhooks' },
  { href: '/settings/env-vars', label: 'Environment variables' },
  { href: '/settings/mcp-servers', label: 'MCP servers' },
];
