/**
 * A run picker: a text box that shows the chosen run as "config · principal · time · headline metric" and, while
 * focused, lists the runs matching every typed word (config, principal, date, metric value or file id).
 * Keyboard: ↓ ↑ move, Enter picks, Escape restores. An ARIA combobox with a listbox popup.
 */
import type { RunSummary } from '../../src/protocol/dashboard';
import { data, h } from '../dom';
import { matchRuns } from './query-view';

export interface RunPickerOptions {
  id: string;
  label: string;
  runs: RunSummary[];
  value?: string;
  onPick: (runId: string) => void;
  /** A short note shown after a run's label in the list (e.g. "another principal"). */
  note?: (run: RunSummary) => string | undefined;
}

export function runPicker(o: RunPickerOptions): HTMLElement {
  const newestFirst = [...o.runs].reverse();
  const current = o.runs.find((r) => r.id === o.value);
  const input = h('input', {
    id: `${o.id}-input`,
    class: 'picker-input',
    dir: 'auto',
    attrs: {
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': `${o.id}-list`,
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'type to filter: config, principal, date, metric',
    },
  });
  input.value = current?.label ?? '';
  input.title = current ? `${current.label}\n${current.id}` : '';
  const list = h('ul', { id: `${o.id}-list`, class: 'picker-list', role: 'listbox', attrs: { 'aria-label': `${o.label} runs` } });
  list.hidden = true;
  let options: RunSummary[] = [];
  let active = -1;

  const open = (filter: string) => {
    options = matchRuns(newestFirst, filter);
    active = options.findIndex((r) => r.id === o.value);
    if (active < 0 && options.length) active = 0;
    list.replaceChildren(
      ...(options.length
        ? options.map((r, i) => {
            const note = o.note?.(r);
            const li = h(
              'li',
              {
                id: `${o.id}-opt-${i}`,
                role: 'option',
                class: r.id === o.value ? 'current' : '',
                attrs: { 'aria-selected': String(i === active), 'data-run': r.id },
                title: r.id,
              },
              data(r.label),
              note ? h('span', { class: 'picker-note' }, ` ${note}`) : null,
            );
            // mousedown, not click: it comes before the input loses focus (which closes the list).
            li.addEventListener('mousedown', (e) => {
              e.preventDefault();
              pick(r.id);
            });
            return li;
          })
        : [h('li', { class: 'muted', attrs: { 'aria-disabled': 'true' } }, 'No run matches.')]),
    );
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    highlight();
  };
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  };
  const highlight = () => {
    list.querySelectorAll('[role=option]').forEach((el, i) => el.setAttribute('aria-selected', String(i === active)));
    const el = active >= 0 ? list.querySelector<HTMLElement>(`#${CSS.escape(`${o.id}-opt-${active}`)}`) : null;
    if (el) {
      input.setAttribute('aria-activedescendant', el.id);
      el.scrollIntoView({ block: 'nearest' });
    }
  };
  const pick = (id: string) => {
    close();
    const r = o.runs.find((x) => x.id === id);
    input.value = r?.label ?? '';
    if (id !== o.value) o.onPick(id);
  };

  input.addEventListener('focus', () => {
    input.select();
    open('');
  });
  input.addEventListener('input', () => open(input.value));
  input.addEventListener('blur', () => {
    close();
    input.value = current?.label ?? '';
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.hidden) open(input.value === current?.label ? '' : input.value);
      if (options.length) active = (active + (e.key === 'ArrowDown' ? 1 : -1) + options.length) % options.length;
      highlight();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const option = options[active];
      if (!list.hidden && option) pick(option.id);
    } else if (e.key === 'Escape') {
      close();
      input.value = current?.label ?? '';
      input.select();
    }
  });

  return h(
    'div',
    { class: 'picker', id: o.id, attrs: { 'data-run': o.value ?? '' } },
    h('label', { attrs: { for: `${o.id}-input` } }, o.label),
    h('div', { class: 'combo' }, input, list),
  );
}
