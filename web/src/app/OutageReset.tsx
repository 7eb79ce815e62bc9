import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { setOutageHandler } from '../api/http';
import { useAuth } from '../auth/auth-context';

function clearCookies() {
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

/**
 * A 503 or 504 from any call means the service is down or timed out: the app forgets everything
 * it holds (caches, storage, cookies, the signed-in person) and starts over at /auth.
 */
export function OutageReset() {
  const queryClient = useQueryClient();
  const { forceLogout } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    setOutageHandler(() => {
      queryClient.clear();
      try {
        localStorage.clear();
        sessionStorage.clear();
      } catch {
        // Storage unavailable: nothing was kept there.
      }
      clearCookies();
      forceLogout();
      if (pathname !== '/auth') navigate('/auth', { replace: true });
    });
    return () => setOutageHandler(null);
  }, [queryClient, forceLogout, navigate, pathname]);
  return null;
}
