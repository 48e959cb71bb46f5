// The page every webview panel gets (src/extension/webviews/html.ts): a strict CSP whose only script is the
// app's, under a fresh nonce; no inline script or style; text is escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webviewHtml } from '../../../src/extension/webviews/html';

const parts = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webviews/dashboard.js',
  styleUris: ['https://file+.vscode-resource.vscode-cdn.net/ext/media/dashboard.css'],
  title: 'Ranklab <Dashboard>',
  loading: 'Loading runs…',
};

function cspOf(html: string): Map<string, string> {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  assert.ok(content, 'a CSP meta tag');
  return new Map(
    content.split(';').map(
      (d) =>
        d
          .trim()
          .split(/\s+(.*)/s)
          .slice(0, 2) as [string, string],
    ),
  );
}

test('the CSP denies everything by default and allows scripts only under the nonce of this page', () => {
  const html = webviewHtml(parts, 'bm9uY2U=');
  const csp = cspOf(html);
  assert.equal(csp.get('default-src'), "'none'");
  assert.equal(csp.get('script-src'), "'nonce-bm9uY2U='");
  assert.equal(csp.get('style-src'), parts.cspSource);
  assert.ok(![...csp.values()].some((v) => v.includes('unsafe-inline') || v.includes('unsafe-eval')));
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
  assert.deepEqual(scripts, [` nonce="bm9uY2U=" src="${parts.scriptUri}"`]);
  assert.ok(html.includes(`<link rel="stylesheet" href="${parts.styleUris[0]}">`));
  assert.ok(!/<style|style="/.test(html), 'no inline style');
});

test('every page gets a new nonce; title and placeholder are text', () => {
  const a = cspOf(webviewHtml(parts)).get('script-src');
  const b = cspOf(webviewHtml(parts)).get('script-src');
  assert.notEqual(a, b);
  assert.match(a!, /^'nonce-[A-Za-z0-9+/]{22}=='$/);
  const html = webviewHtml(parts);
  assert.ok(html.includes('<title>Ranklab &#60;Dashboard&#62;</title>'));
  assert.ok(html.includes('<main id="app" aria-live="polite"><p class="muted">Loading runs…</p></main>'));
});
