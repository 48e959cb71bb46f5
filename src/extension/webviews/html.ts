/**
 * The HTML page of a webview panel: a strict Content Security Policy, the app's script under a fresh nonce, its
 * style sheets, and a placeholder in `#app` until the app draws (after vscode-extension-samples' webview-sample).
 * No `vscode` import: the caller passes the URIs from `webview.asWebviewUri` and `webview.cspSource`.
 */
import { randomBytes } from 'node:crypto';

export interface PageParts {
  /** `webview.cspSource`: where the page may load scripts, styles, fonts and images from. */
  cspSource: string;
  scriptUri: string;
  styleUris: string[];
  title: string;
  /** Plain text shown until the app has drawn. */
  loading: string;
}

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function webviewHtml(p: PageParts, nonce = newNonce()): string {
  // No inline script or style; the one script runs under the nonce. Chart.js sets sizes through the CSSOM (allowed).
  const csp = [
    "default-src 'none'",
    `img-src ${p.cspSource} data:`,
    `style-src ${p.cspSource}`,
    `font-src ${p.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${p.styleUris.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('\n')}
<title>${escapeHtml(p.title)}</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="muted">${escapeHtml(p.loading)}</p></main>
<script nonce="${nonce}" src="${escapeHtml(p.scriptUri)}"></script>
</body>
</html>`;
}
