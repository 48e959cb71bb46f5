// Drives a real VS Code (code-server 4.100.3 = VS Code 1.100.3: web workbench + Node extension host) with
// playwright-core and Debian's Chromium, offline. See test/e2e/README.md.
//
//   const vs = await launchVSCode({ workspace, extensionDevelopmentPath, name: 'ui' });
//   try { await vs.runCommand('Ranklab: Open Dashboard'); ... } finally { await vs.close(); }
//
// Every run gets its own folder .vscode-test/run-<name>-<stamp>/ (user data, extensions, XDG dirs, logs).
// close() always kills code-server (whole process group) and Chromium; a process exit hook does it too.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CS_BIN = process.env.RANKLAB_CODE_SERVER || path.join(REPO, '.vscode-test/code-server/node_modules/.bin/code-server');
export const CHROMIUM = process.env.RANKLAB_CHROMIUM || '/usr/bin/chromium';
export const RESULTS = path.join(REPO, 'test-results');
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const t0 = Date.now();
export const log = (...a) => console.log(`[e2e +${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Copies a fixture folder into the run dir so tests never modify checked-in files. */
export function copyWorkspace(fixture, runDir) {
  const dest = path.join(runDir, 'ws', path.basename(fixture));
  fs.cpSync(fixture, dest, { recursive: true });
  return dest;
}

export function makeRunDir(name) {
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const dir = path.join(REPO, '.vscode-test', `run-${name}-${stamp}-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const live = new Set();
let hooksInstalled = false;
function installExitHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // Last-resort cleanup: SIGTERM the code-server process groups synchronously (the browser dies with us).
  process.on('exit', () => {
    for (const s of live) killGroup(s);
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      log(`got ${sig}, cleaning up`);
      for (const s of live) killGroup(s);
      process.exit(130);
    });
  }
}
function killGroup(server, signal = 'SIGTERM') {
  if (server.exitCode !== null || server.signalCode !== null) return;
  try {
    process.kill(-server.pid, signal);
  } catch {
    try {
      server.kill(signal);
    } catch {
      /* gone */
    }
  }
}

/**
 * Starts code-server + Chromium and opens the workbench on `workspace`.
 * Options: workspace (folder), extensionDevelopmentPath, extensionTestsPath (in-host mocha; the workbench
 * reports the exit code), extensionsDir (e.g. a .vsix installed into it), env (extension-host env vars),
 * settings (user settings.json), name, runDir, timeoutMs.
 * Installed-extension mode: `vsix` (a .vsix file) instead of extensionDevelopmentPath; see installVsix().
 */
export async function launchVSCode(opts) {
  if (!fs.existsSync(CS_BIN)) throw new Error(`code-server not installed at ${CS_BIN}: run scripts/vscode/install.sh`);
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} missing: run scripts/vscode/install.sh`);
  installExitHooks();
  if (opts.vsix && opts.extensionDevelopmentPath) throw new Error('launchVSCode: vsix and extensionDevelopmentPath exclude each other');
  const runDir = opts.runDir ?? makeRunDir(opts.name ?? 'vscode');
  const ud = path.join(runDir, 'user-data');
  const xdg = {
    XDG_CONFIG_HOME: path.join(runDir, 'xdg/config'),
    XDG_DATA_HOME: path.join(runDir, 'xdg/data'),
    XDG_CACHE_HOME: path.join(runDir, 'xdg/cache'),
    TMPDIR: fs.mkdtempSync(path.join(os.tmpdir(), 'rl-')),
  }; // short: VS Code's IPC socket paths must stay < 108 chars
  // An installed extension lives outside the repo (in TMPDIR, removed by close()), see installVsix().
  const ext = opts.extensionsDir ?? (opts.vsix ? path.join(xdg.TMPDIR, 'extensions') : path.join(runDir, 'extensions'));
  for (const d of [ud, ext, ...Object.values(xdg), path.join(ud, 'User')]) fs.mkdirSync(d, { recursive: true });
  let installedExtension;
  try {
    if (opts.vsix) installedExtension = installVsix(opts.vsix, { ud, ext, env: { ...process.env, ...xdg }, runDir });
  } catch (e) {
    fs.rmSync(xdg.TMPDIR, { recursive: true, force: true });
    throw e;
  }
  const settingsFile = path.join(ud, 'User', 'settings.json');
  writeSettings(settingsFile, {
    'workbench.startupEditor': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'workbench.enableExperiments': false,
    'security.workspace.trust.enabled': false,
    'workbench.tips.enabled': false,
    'chat.disableAIFeatures': true,
    'git.openRepositoryInParentFolders': 'never',
    'git.enabled': false,
    'workbench.colorTheme': 'Default Dark Modern',
    ...opts.settings,
  });

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const csLog = fs.openSync(path.join(runDir, 'code-server.log'), 'w');
  const server = spawn(
    CS_BIN,
    [
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--config',
      path.join(ud, 'config.yaml'),
      '--user-data-dir',
      ud,
      '--extensions-dir',
      ext,
      '--log',
      'info',
      opts.workspace,
    ],
    {
      detached: true, // own process group: close() kills code-server and its extension host together
      stdio: ['ignore', csLog, csLog],
      // The extension host inherits this environment (the web payload's extensionEnvironment is ignored).
      env: { ...process.env, EXTENSIONS_GALLERY: '{}', ...xdg, ...opts.env },
    },
  );
  fs.closeSync(csLog);
  live.add(server);
  log(`code-server pid ${server.pid} on ${base} (run dir ${path.relative(REPO, runDir)})`);

  let browser;
  const vs = {
    runDir,
    server,
    base,
    settingsFile,
    installedExtension,
    page: undefined,
    dialogs: [],
    dialogCalls: [],
    consoleLines: [],
    hostLog: [],
    async close() {
      try {
        if (vs.page) fs.writeFileSync(path.join(runDir, 'browser-console.txt'), vs.consoleLines.join('\n') + '\n');
      } catch {
        /* best effort */
      }
      try {
        if (browser) await browser.close();
      } catch {
        /* already gone */
      }
      killGroup(server);
      const deadline = Date.now() + 5000;
      while (server.exitCode === null && server.signalCode === null && Date.now() < deadline) await sleep(100);
      if (server.exitCode === null && server.signalCode === null) killGroup(server, 'SIGKILL');
      live.delete(server);
      fs.rmSync(xdg.TMPDIR, { recursive: true, force: true });
      log('code-server and chromium stopped');
    },
  };
  try {
    await waitHealthy(server, base, runDir);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
    // Record every alert/confirm/prompt call in every frame. VS Code's webview iframes are sandboxed without
    // allow-modals, so a call there never opens a dialog (Chromium only logs "Ignored call to 'alert()'"):
    // the console marker is what makes "no dialog" checkable inside webviews.
    await context.addInitScript(() => {
      for (const name of ['alert', 'confirm', 'prompt']) {
        const orig = window[name];
        window[name] = function (...args) {
          console.log(`RANKLAB-DIALOG-CALLED ${name} ${String(args[0])}`);
          return orig.apply(this, args);
        };
      }
    });
    const page = await context.newPage();
    vs.page = page;
    page.setDefaultTimeout(30000);
    page.on('console', (m) => {
      const line = `[${m.type()}] ${m.text()}`;
      vs.consoleLines.push(line);
      if (/RANKLAB-DIALOG-CALLED|Ignored call to '(alert|confirm|prompt)\(\)'/.test(line)) {
        vs.dialogCalls.push(line);
        log(`dialog call: ${line}`);
      }
    });
    page.on('pageerror', (e) => vs.consoleLines.push(`[pageerror] ${e.message}`));
    // Dialogs from any frame of the page (incl. the webview's nested iframes) arrive here.
    page.on('dialog', async (d) => {
      vs.dialogs.push({ type: d.type(), message: d.message() });
      log(`DIALOG ${d.type()}: ${d.message()}`);
      await d.dismiss().catch(() => {});
    });

    let resolveExit;
    vs.testsExit = new Promise((r) => (resolveExit = r));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = `[ext-host ${type}] ${Array.isArray(args) ? util.format(...args) : String(args)}`;
      vs.hostLog.push(line);
      if (opts.extensionTestsPath) console.log(line);
    });
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit(code));

    // code-server 4.100 fixes the workbench's remote authority to "remote".
    const payload = [];
    if (opts.extensionDevelopmentPath)
      payload.push(['extensionDevelopmentPath', `vscode-remote://remote${path.resolve(opts.extensionDevelopmentPath)}`]);
    if (opts.extensionTestsPath) payload.push(['extensionTestsPath', `vscode-remote://remote${path.resolve(opts.extensionTestsPath)}`]);
    const url = `${base}/?folder=${encodeURIComponent(opts.workspace)}${payload.length ? `&payload=${encodeURIComponent(JSON.stringify(payload))}` : ''}`;
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench').waitFor({ timeout: 90000 });
    log('workbench visible');
    Object.assign(vs, helpers(vs));
    return vs;
  } catch (e) {
    await vs.close();
    throw e;
  }
}

/**
 * Installs a .vsix as a user would (`code-server --install-extension`) into the profile's user-data and extensions
 * dirs; returns the installed extension's folder. The extensions dir must be outside the repo: Node resolves a
 * module the package lacks from each parent folder's node_modules, and the repo's would hide the gap.
 */
function installVsix(vsix, { ud, ext, env, runDir }) {
  if (!path.relative(REPO, ext).startsWith('..'))
    throw new Error(`installVsix: ${ext} is inside ${REPO}; its node_modules would stand in for the package's`);
  const r = spawnSync(
    CS_BIN,
    ['--config', path.join(ud, 'config.yaml'), '--user-data-dir', ud, '--extensions-dir', ext, '--install-extension', path.resolve(vsix)],
    { env, encoding: 'utf8', timeout: 300000 },
  );
  fs.writeFileSync(path.join(runDir, 'install.log'), `${r.stdout ?? ''}${r.stderr ?? ''}`);
  const installed = fs.readdirSync(ext).filter((n) => n.startsWith('ranklab.ranklab-'));
  if (r.status !== 0 || installed.length !== 1) {
    throw new Error(
      `code-server --install-extension ${vsix} failed (exit ${r.status ?? r.signal}, installed: ${installed.join(', ') || 'nothing'}):\n${r.stdout}${r.stderr}`,
    );
  }
  log(`installed ${path.basename(vsix)} -> ${installed[0]}`);
  return path.join(ext, installed[0]);
}

function writeSettings(file, settings) {
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
}

async function waitHealthy(server, base, runDir) {
  const deadline = Date.now() + 90000;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    if (server.exitCode !== null)
      throw new Error(`code-server exited early (${server.exitCode}); see ${path.join(runDir, 'code-server.log')}`);
    await sleep(200);
  }
  throw new Error('code-server did not become healthy within 90 s');
}

function helpers(vs) {
  const page = vs.page;
  return {
    /**
     * Runs a command by its palette title. Contributed commands appear 4–6 s after the workbench:
     * the palette is reopened until the entry is listed (deadline-bounded).
     */
    async runCommand(title, { timeoutMs = 90000 } = {}) {
      await page.locator('.part.statusbar').waitFor({ timeout: 60000 });
      const input = page.locator('.quick-input-widget input.input');
      const deadline = Date.now() + timeoutMs;
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 10000 });
        await input.fill(`>${title}`);
        const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
        try {
          await row.waitFor({ timeout: 3000 });
          // The palette filters fuzzily: make sure the first row is the exact command before Enter.
          const label =
            (await row
              .locator('.label-name')
              .first()
              .textContent()
              .catch(() => '')) ?? '';
          if (label.trim() !== title) {
            await row.click();
          } else {
            await page.keyboard.press('Enter');
          }
          log(`ran command "${title}" (attempt ${attempt})`);
          return;
        } catch {
          await page.keyboard.press('Escape');
          if (Date.now() > deadline) throw new Error(`command "${title}" never appeared in the palette (extension not loaded?)`);
          await sleep(1000);
        }
      }
    },
    /** The content frame of the (single visible) webview: outer iframe.webview.ready → inner #active-frame. */
    webview() {
      return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    },
    /** The inner webview Frame object (for frame.evaluate). */
    async webviewFrame() {
      const handle = await page.frameLocator('iframe.webview.ready').locator('#active-frame').elementHandle({ timeout: 30000 });
      return handle.contentFrame();
    },
    /** Waits until `selector` inside the webview has text matching `re`; returns that text. */
    async webviewText(selector, re = /\S/, { timeoutMs = 45000 } = {}) {
      const loc = this.webview().locator(selector).first();
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        try {
          last = (await loc.textContent({ timeout: 2000 })) ?? '';
          if (re.test(last)) return last;
        } catch {
          /* not there yet */
        }
        await sleep(300);
      }
      throw new Error(`webview ${selector}: text ${JSON.stringify(last.slice(0, 300))} never matched ${re}`);
    },
    /** Opens the Problems panel and waits for a marker whose text matches `re`; returns its text. */
    async waitForProblem(re, { timeoutMs = 60000 } = {}) {
      const rows = page.locator('.markers-panel .monaco-list-row');
      const deadline = Date.now() + timeoutMs;
      let opened = false;
      while (Date.now() < deadline) {
        if (
          !opened ||
          !(await page
            .locator('.markers-panel')
            .isVisible()
            .catch(() => false))
        ) {
          await page.keyboard.press('Control+Shift+M');
          opened = true;
          await sleep(500);
        }
        const texts = await rows.allTextContents().catch(() => []);
        const hit = texts.find((t) => re.test(t));
        if (hit) return hit;
        await sleep(500);
      }
      throw new Error(`no problem matching ${re} appeared`);
    },
    /** Switches the colour theme through the theme picker (as a user would). */
    async setColorTheme(label) {
      await page.locator('.part.statusbar').waitFor({ timeout: 60000 });
      await page.locator('.part.sidebar .composite.title').first().click(); // focus the workbench, not the webview
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+T');
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible', timeout: 10000 });
      await input.fill(label);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor({ timeout: 10000 });
      await page.keyboard.press('Enter');
      await page
        .locator('.quick-input-widget')
        .waitFor({ state: 'hidden', timeout: 10000 })
        .catch(() => {});
      log(`colour theme: ${label}`);
    },
    /** Changes a user setting live (code-server watches settings.json), e.g. the colour theme. */
    updateSettings(patch) {
      const cur = JSON.parse(fs.readFileSync(vs.settingsFile, 'utf8'));
      writeSettings(vs.settingsFile, { ...cur, ...patch });
    },
    async screenshot(name) {
      fs.mkdirSync(RESULTS, { recursive: true });
      const file = path.join(RESULTS, `${name}.png`);
      await page.screenshot({ path: file });
      log(`screenshot ${path.relative(REPO, file)}`);
      return file;
    },
  };
}

/** Runs `fn(vs)` with a fresh VS Code, retrying the whole session once on failure when `retries` > 0. */
export async function withVSCode(opts, fn, { retries = 0 } = {}) {
  for (let attempt = 0; ; attempt++) {
    const vs = await launchVSCode(opts);
    try {
      return await fn(vs);
    } catch (e) {
      await vs.screenshot(`${opts.name ?? 'vscode'}-failure${attempt ? `-${attempt}` : ''}`).catch(() => {});
      if (attempt >= retries) throw e;
      log(`attempt ${attempt + 1} failed (${e.message}); retrying with a fresh session`);
    } finally {
      await vs.close();
    }
  }
}

/**
 * The visible webview's document (two can live side by side in one editor group: always talk to the shown one),
 * and `textOf(selector, re)`: polls the first match's text until it matches `re`, or throws with the last text.
 */
export function visibleWebview(page, defaultTimeoutMs = 60000) {
  const visible = () => page.frameLocator('iframe.webview.ready >> visible=true').frameLocator('#active-frame');
  const textOf = async (selector, re, timeoutMs = defaultTimeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last =
        (await visible()
          .locator(selector)
          .first()
          .textContent({ timeout: 2000 })
          .catch(() => '')) ?? '';
      if (re.test(last)) return last;
      await page.waitForTimeout(300);
    }
    throw new Error(`${selector}: ${JSON.stringify(last.slice(0, 300))} never matched ${re}`);
  };
  return { visible, textOf };
}
