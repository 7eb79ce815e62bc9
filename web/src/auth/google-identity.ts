// Google Identity Services, loaded from Google only when someone chooses Google sign-in.

interface GoogleId {
  initialize: (options: {
    client_id: string;
    callback: (answer: { credential?: string }) => void;
    cancel_on_tap_outside?: boolean;
  }) => void;
  prompt: (listener?: (n: { isNotDisplayed?: () => boolean; isSkippedMoment?: () => boolean }) => void) => void;
  disableAutoSelect: () => void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleId } };
  }
}

const SCRIPT_URL = 'https://accounts.google.com/gsi/client';
let loading: Promise<void> | null = null;

function loadScript(): Promise<void> {
  if (window.google?.accounts?.id) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      reject(new Error('Google accounts API unavailable'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Shows Google's prompt and resolves with the ID token (credential) it returns. */
export async function requestGoogleCredential(clientId: string): Promise<string> {
  await loadScript();
  const id = window.google?.accounts?.id;
  if (!id) throw new Error('Google accounts API unavailable');
  return new Promise<string>((resolve, reject) => {
    id.initialize({
      client_id: clientId,
      cancel_on_tap_outside: true,
      callback: (answer) =>
        answer.credential ? resolve(answer.credential) : reject(new Error('No credential returned by Google')),
    });
    id.prompt((n) => {
      if (n.isNotDisplayed?.() || n.isSkippedMoment?.()) reject(new Error('No credential returned by Google'));
    });
  });
}

export function signOutOfGoogle(): void {
  try {
    window.google?.accounts?.id?.disableAutoSelect();
  } catch {
    // Not signed in with Google, or the script is gone: nothing to sign out of.
  }
}
