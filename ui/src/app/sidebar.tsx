/** Sidebar: the main navigation landmark; the current section's link carries aria-current="page". */
import { Link, useLocation } from 'wouter';
import { navItems } from './nav-items';

export function Sidebar({ open, onNavigate }: { open: boolean; onNavigate(): void }) {
  const [location] = useLocation();
  return (
    <nav id="main-nav" className={`sidebar ${open ? 'open' : ''}`} aria-label="Main">
      <ul>
        {navItems.map((item) => {
          const current = location === item.href || location.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link href={item.href} aria-current={current ? 'page' : undefined} onClick={onNavigate}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
