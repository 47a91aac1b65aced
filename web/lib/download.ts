import type { FileDownload } from './api.ts';

/** Hands a downloaded file to the browser under its own name (an object URL and a temporary link). */
export function saveDownload({ blob, filename }: FileDownload) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
