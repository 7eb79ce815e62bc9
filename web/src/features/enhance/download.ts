const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/webp': 'webp', 'image/avif': 'avif' };

export function downloadNameFor(contentType: string): string {
  return `enhanced.${EXTENSIONS[contentType.split(';')[0]?.trim() ?? ''] ?? 'jpg'}`;
}

/** Saves the result; when the browser cannot fetch it (CORS, network) it opens it in a new tab instead. */
export async function downloadResult(url: string, fileName?: string): Promise<void> {
  try {
    const res = await fetch(url, { credentials: 'include' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const blob = await res.blob();
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = fileName ?? downloadNameFor(blob.type);
    document.body.appendChild(a);
    a.click();
    a.remove();
    URL.revokeObjectURL(href);
  } catch {
    window.open(url, '_blank', 'noopener');
  }
}
