/**
 * A windowed list: only the rows in (and just around) the scrolled window exist in the DOM, positioned absolutely
 * in a spacer as tall as all rows together (fixed row height). 5,000 queries cost the same as 50.
 * The header (if any) sits sticky at the top of the same scroll container, so its columns line up with the rows'.
 */
import { h } from '../dom';
import { scrollToShow, windowRange } from './query-view';

export interface VirtualListOptions {
  rowHeight: number;
  /** Builds the element of row `index` (called again after `refresh()`). */
  renderRow: (index: number) => HTMLElement;
  header?: HTMLElement;
  /** Accessible name of the scroll container. */
  label: string;
}

export class VirtualList {
  /** The scroll container (focusable, for keyboard navigation). */
  readonly viewport: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly alive = new Map<number, HTMLElement>();
  private count = 0;
  private frame = 0;

  constructor(private readonly opts: VirtualListOptions) {
    this.spacer = h('div', { class: 'vt-spacer', role: 'rowgroup' });
    this.viewport = h('div', { class: 'vt-viewport', attrs: { tabindex: '0', 'aria-label': opts.label } });
    if (opts.header) this.viewport.append(opts.header);
    this.viewport.append(this.spacer);
    this.viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    // The viewport's height changes with the window: draw the rows that became visible.
    new ResizeObserver(() => this.schedule()).observe(this.viewport);
  }

  /** The number of rows changed (filter, sort): every drawn row is rebuilt. */
  setCount(count: number): void {
    this.count = count;
    this.spacer.style.height = `${count * this.opts.rowHeight}px`;
    this.refresh();
  }

  /** Rebuilds the drawn rows (e.g. after the selection changed). */
  refresh(): void {
    for (const el of this.alive.values()) el.remove();
    this.alive.clear();
    this.draw();
  }

  /** Scrolls so that row `index` is visible. */
  show(index: number): void {
    const top = scrollToShow(index, this.viewport.scrollTop, this.bodyHeight(), this.opts.rowHeight);
    if (top !== this.viewport.scrollTop) this.viewport.scrollTop = top;
    this.draw();
  }

  /** How many rows fit in the window (for Page Up / Page Down). */
  get pageSize(): number {
    return Math.max(1, Math.floor(this.bodyHeight() / this.opts.rowHeight) - 1);
  }

  /** Rows currently in the DOM (the e2e test reads it too, as `.vt-row` elements). */
  get aliveCount(): number {
    return this.alive.size;
  }

  private bodyHeight(): number {
    return this.viewport.clientHeight - (this.opts.header?.offsetHeight ?? 0);
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    const { first, end } = windowRange(this.viewport.scrollTop, this.bodyHeight(), this.opts.rowHeight, this.count);
    for (const [i, el] of this.alive) {
      if (i < first || i >= end) {
        el.remove();
        this.alive.delete(i);
      }
    }
    for (let i = first; i < end; i++) {
      if (this.alive.has(i)) continue;
      const el = this.opts.renderRow(i);
      el.style.top = `${i * this.opts.rowHeight}px`;
      el.style.height = `${this.opts.rowHeight}px`;
      this.alive.set(i, el);
      this.spacer.append(el);
    }
  }
}
