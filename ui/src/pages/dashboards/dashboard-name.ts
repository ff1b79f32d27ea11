/** A dashboard's name as the API takes it: not blank, at most 200 characters. Export: validateDashboardName(name) → message or null. */
export function validateDashboardName(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'Give the dashboard a name.';
  if (trimmed.length > 200) return 'A name is at most 200 characters.';
  return null;
}
