#!/usr/bin/env bash
# The one entry for the VS Code tests: `npm run test:e2e [-- ui|integration|installed|vsix ...]` (default: every step but vsix).
#   ui           test/e2e/dashboard.e2e.mjs: palette → dashboard webview → text/XSS assertions → screenshots (test-results/)
#   verdict      test/e2e/verdict.e2e.mjs: real runs of a hostile example copy → verdicts, N-way matrix, refusal, 4 themes
#   scale        test/e2e/scale.e2e.mjs: 5,000-query runs → windowed per-query table (rows alive, timings logged)
#   judging      test/e2e/judging.e2e.mjs: palette → judging view → grades by keyboard → file on disk, judged@10 in the dashboard
#   progress     test/e2e/progress.e2e.mjs: slow Run Evaluation → notification counts → Cancel → cancelled message, no run of the stopped config
#   sweep        test/e2e/sweep.e2e.mjs: palette → Sweep Parameter on baseline.rank.json → curve → a point's per-query diff → Save as config
#   tune         test/e2e/tune.e2e.mjs: palette → Tune on title-boost-3.rank.json → a slider moved → figures change → Apply to config → file on disk, two themes
#   responsive   test/e2e/responsive.e2e.mjs: Open Dashboard answers while a long evaluation runs in the worker
#   beir         test/e2e/testing-beir.e2e.mjs: a BEIR folder (no ranklab.json) → Run All Tests → queries pass under the built-in config, access control skipped with its reason
#   logs         test/e2e/logs.e2e.mjs: a generated log (planted e-mails, a robot) → queries sample (CLI, then the palette's dialogs:
#                same bytes) → judging view offers the sampled queries → keyboard grades → eval scores them; no e-mail written
#   integration  test/integration/runTest.mjs: unmodified @vscode/test-electron runTests() → in-host mocha
#   installed    test/e2e/installed.e2e.mjs: `npm run package` → the .vsix installed into a clean profile (no
#                extensionDevelopmentPath) → Run Evaluation on a copy of examples/food-search → runs saved → Open
#                Dashboard → verdict; fails on an error notification or "Cannot find module"/activation errors in the logs
#   vsix         `npm run package` (refuses dev files, checks the runtime files) and install into a fresh extensions dir
# Every step but `installed` and `vsix` loads the extension from this folder (extensionDevelopmentPath), as test-electron does.
# Exits non-zero on the first failure. Logs and per-run dirs: .vscode-test/run-*/.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$REPO"
STEPS="${*:-ui food verdict scale judging progress responsive sweep tune beir logs integration installed}"
CS_BIN="$REPO/.vscode-test/code-server/node_modules/.bin/code-server"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1fs", b-a}'; }
T0=$(now)

if [ ! -x "$CS_BIN" ] || ! command -v chromium >/dev/null; then
  echo "== harness missing: running scripts/vscode/install.sh"
  bash scripts/vscode/install.sh
fi
# Keep only the newest run folders.
# (a fresh clone has no run folders yet: ls fails, which pipefail would turn into an exit)
{ ls -dt .vscode-test/run-* 2>/dev/null || true; } | tail -n +13 | xargs -r rm -rf

echo "== build"; T=$(now)
node scripts/build.mjs
node scripts/vscode/build-tests.mjs
for f in dist/extension.js dist/worker.js dist/webviews/dashboard.js dist/webviews/judging.js; do [ -f "$f" ] || { echo "missing $f after build"; exit 1; }; done
echo "   build: $(since "$T")"

for step in $STEPS; do
  T=$(now)
  case "$step" in
    ui)
      echo "== ui: dashboard e2e"
      node test/e2e/dashboard.e2e.mjs ;;
    verdict)
      echo "== verdict: dashboard first screen on real runs (verdicts, matrix, mixed principals, hostile text, 4 themes)"
      node test/e2e/verdict.e2e.mjs ;;
    scale)
      echo "== scale: per-query view with 5,000 queries (windowed table, figures logged)"
      node test/e2e/scale.e2e.mjs ;;
    food)
      echo "== food: example workspace e2e (Run Evaluation, dashboard, edit config -> Problems)"
      node test/e2e/food-search.e2e.mjs ;;
    judging)
      echo "== judging: example workspace e2e (Judge Unjudged Documents, keyboard grades, file on disk, dashboard judged@10)"
      node test/e2e/judging.e2e.mjs ;;
    logs)
      echo "== logs: a generated query log -> queries sample (CLI and Sample Queries from a Log) -> judging view -> keyboard grades -> eval"
      node test/e2e/logs.e2e.mjs ;;
    sweep)
      echo "== sweep: Sweep Parameter on the example (curve, a point's per-query diff, save as config)"
      node test/e2e/sweep.e2e.mjs ;;
    tune)
      echo "== tune: the Tune view on the example (move a slider, figures change, Apply to config, two themes)"
      node test/e2e/tune.e2e.mjs ;;
    progress)
      echo "== progress: Run Evaluation's progress notification and Cancel (no run of the stopped config)"
      node test/e2e/progress.e2e.mjs ;;
    responsive)
      echo "== responsive: Open Dashboard answers while a long evaluation runs in the worker"
      node test/e2e/responsive.e2e.mjs ;;
    beir)
      echo "== beir: Testing view on a BEIR folder (built-in config, access control skipped with its reason)"
      node test/e2e/testing-beir.e2e.mjs ;;
    integration)
      echo "== integration: in-host mocha via @vscode/test-electron runTests()"
      node test/integration/runTest.mjs ;;
    installed)
      echo "== installed: the packaged .vsix installed into a clean profile (Run Evaluation, runs saved, dashboard verdict)"
      node test/e2e/installed.e2e.mjs ;;
    vsix)
      echo "== vsix: package (no dev file, every runtime file) + install into a fresh extensions dir"
      node --import tsx scripts/vscode/package.ts > .vscode-test/vsce.log 2>&1 || { tail -60 .vscode-test/vsce.log; exit 1; }
      tail -1 .vscode-test/vsce.log
      D="$(mktemp -d "$REPO/.vscode-test/vsix-XXXX")"
      "$CS_BIN" --config "$D/config.yaml" --user-data-dir "$D/ud" --extensions-dir "$D/ext" --install-extension .vscode-test/ranklab.vsix > "$D/install.log" 2>&1 \
        || { cat "$D/install.log"; exit 1; }
      ls "$D/ext" | grep -q '^ranklab\.ranklab-' || { echo "vsix did not install"; cat "$D/install.log"; exit 1; }
      test -f "$D"/ext/ranklab.ranklab-*/node_modules/hnswlib-node/build/Release/addon.node || { echo "hnswlib-node addon missing in the vsix"; exit 1; }
      rm -rf "$D" ;;
    *) echo "unknown step $step (ui | food | verdict | scale | judging | progress | responsive | sweep | tune | beir | logs | integration | installed | vsix)"; exit 2 ;;
  esac
  echo "   $step: $(since "$T")"
done
echo "== test:e2e OK in $(since "$T0") (screenshots: test-results/)"
