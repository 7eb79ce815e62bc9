import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/** A new page starts at its top; the home page keeps its place (its sections are linked by anchor). */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (pathname !== '/') window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
