/** Moves focus to the main region when the path changes (not on the first render), so screen readers start at the new page. */
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

export function useFocusOnNavigate(): void {
  const [location] = useLocation();
  const previous = useRef(location);
  useEffect(() => {
    if (previous.current === location) return;
    previous.current = location;
    document.getElementById('main')?.focus({ preventScroll: false });
  }, [location]);
}
