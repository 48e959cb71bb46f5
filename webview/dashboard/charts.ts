/** Chart.js set-up and theme colours for the dashboard's charts (every colour from a --vscode-* variable). */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import { cssVar } from '../dom';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export { Chart };

export interface ChartColors {
  fg: string;
  grid: string;
  win: string;
  loss: string;
  tie: string;
  selected: string;
  palette: string[];
}

export function chartColors(): ChartColors {
  const blue = cssVar('--vscode-charts-blue', '#3794ff');
  const green = cssVar('--vscode-charts-green', '#89d185');
  const red = cssVar('--vscode-charts-red', '#f14c4c');
  const palette = [
    blue,
    cssVar('--vscode-charts-orange', '#d18616'),
    green,
    cssVar('--vscode-charts-purple', '#b180d7'),
    cssVar('--vscode-charts-yellow', '#cca700'),
    red,
  ];
  return {
    fg: cssVar('--vscode-foreground', '#888'),
    grid: cssVar('--vscode-panel-border', 'rgba(128,128,128,0.3)'),
    win: green,
    loss: red,
    tie: cssVar('--vscode-descriptionForeground', '#888'),
    selected: cssVar('--vscode-focusBorder', blue),
    palette,
  };
}

export function axes(c: ChartColors, opts: { hideX?: boolean } = {}) {
  return {
    x: { ticks: { color: c.fg, display: !opts.hideX }, grid: { color: c.grid, display: !opts.hideX } },
    y: { ticks: { color: c.fg }, grid: { color: c.grid } },
  };
}

/** Charts drawn on the page now; destroyed before the page is redrawn. */
export const liveCharts = new Set<Chart>();

export function destroyCharts(): void {
  for (const c of liveCharts) c.destroy();
  liveCharts.clear();
}

/** Creates a chart once its canvas is in the document (the next frame). */
export function drawLater(canvas: HTMLCanvasElement, make: (c: ChartColors) => Chart, then?: (chart: Chart) => void): void {
  requestAnimationFrame(() => {
    if (!canvas.isConnected) return;
    const chart = make(chartColors());
    liveCharts.add(chart);
    then?.(chart);
  });
}
