/** Layout: skip link, header (product, workspace switcher, theme toggle, user menu), sidebar navigation and the main region. */
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { AskAi } from '../components/ask-ai/ask-ai';
import { WorkspaceSwitcher } from '../workspace/workspace-switcher';
import { ThemeToggle } from './theme-toggle';
import { UserMenu } from './user-menu';
import { Sidebar } from './sidebar';

export function Layout({ children }: { children: ReactNode }) {
  const [navOpen, setNavOpen] = useState(false);
  // Escape closes the navigation drawer (tablets) and gives focus back to its button.
  useEffect(() => {
    if (!navOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setNavOpen(false);
      document.querySelector<HTMLElement>('.nav-toggle')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navOpen]);
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <button
          type="button"
          className="button icon-button nav-toggle"
          aria-expanded={navOpen}
          aria-controls="main-nav"
          onClick={() => setNavOpen((open) => !open)}
        >
          <span aria-hidden="true">☰</span>
          <span className="visually-hidden">Menu</span>
        </button>
        <Link href="/runs" className="brand">
          Loadplane
        </Link>
        <WorkspaceSwitcher />
        <div className="header-end">
          <AskAi />
          <ThemeToggle />
          <UserMenu />
        </div>
      </header>
      <div className="app-body">
        <Sidebar open={navOpen} onNavigate={() => setNavOpen(false)} />
        <main id="main" className="app-main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
