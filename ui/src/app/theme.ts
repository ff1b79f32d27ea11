/** Light/dark theme: follows prefers-color-scheme unless the user picked one (kept in localStorage). Exports: Theme, readTheme, applyTheme, useTheme. */
import { useCallback, useState } from 'react';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'loadplane.theme';

export function readTheme(): Theme {
  try {
    const stored = window.localStorage.getItem(KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

function effective(theme: Theme): 'light' | 'dark' {
  if (theme !== 'system') return theme;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The theme in use ('light' or 'dark') and a toggle to the other one (which is then remembered). */
export function useTheme(): { theme: 'light' | 'dark'; toggle(): void } {
  const [theme, setTheme] = useState<'light' | 'dark'>(() => effective(readTheme()));
  const toggle = useCallback(() => {
    setTheme((current) => {
      const next = current === 'dark' ? 'light' : 'dark';
      try {
        window.localStorage.setItem(KEY, next);
      } catch {
        // not remembered
      }
      applyTheme(next);
      return next;
    });
  }, []);
  return { theme, toggle };
}
