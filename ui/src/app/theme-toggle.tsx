/** ThemeToggle: a button switching between the light and dark themes, with aria-pressed. */
import { useTheme } from './theme';

export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  return (
    <button type="button" className="button icon-button" aria-pressed={theme === 'dark'} onClick={toggle} title="Dark theme">
      <span aria-hidden="true">{theme === 'dark' ? '☾' : '☀'}</span>
      <span className="visually-hidden">Dark theme</span>
    </button>
  );
}
