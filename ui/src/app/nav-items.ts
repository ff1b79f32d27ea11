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
];
