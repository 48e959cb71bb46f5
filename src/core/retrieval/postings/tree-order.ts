/**
 * The iteration order of MiniSearch's radix tree (SearchableMap), derived from the terms and the order they were
 * inserted in, without building the tree (issue 32: ~250 bytes a term on the heap). The postings-only index numbers
 * its terms in that order, because top-k.ts sums a query term's prefix and fuzzy expansions in the order MiniSearch's
 * own search visits them (atPrefix: ascending tree order; fuzzyGet: descending), and floating-point sums depend on it.
 *
 * The tree (SearchableMap's createPath): a node's entries are a Map, in the order they were last set. A child edge is
 * set when the child node is created (a new leaf, or an intermediate node splitting an edge), and again when a node is
 * inserted above it, which then holds it first and the new branch second; a term's own entry (LEAF) is set when the
 * term is inserted. A node Q exists once Q is an inserted term, or two inserted terms part after Q: its creation time
 * cQ is its term's time when that is the earliest in its subtree, else the second smallest of the earliest times of
 * its groups (its term, and each child's subtree). Within Q, child M was last set at max(cQ, cM), before the branch
 * of the same time when cM < cQ; Q's LEAF at its term's time. The tree iterates a node's entries last-set first
 * (TreeIterator reads each key list from its end), depth first. test/unit/retrieval/vocabulary.test.ts holds this
 * against SearchableMap itself on random vocabularies and insertion orders.
 */

const NONE = 0x7fffffff;

/**
 * The tree rank of each term: `sorted` are the distinct terms in code-unit order (the default sort), `times[i]` the
 * insertion position of sorted[i] (distinct). Returns rank[i] = position of sorted[i] in SearchableMap's iteration.
 */
export function treeOrder(sorted: readonly string[], times: Int32Array): Int32Array {
  const n = sorted.length;
  const cap = 2 * n + 1;
  const depth = new Int32Array(cap);
  const parent = new Int32Array(cap).fill(-1);
  const term = new Int32Array(cap).fill(-1); // sorted index of the node's own term
  const min1 = new Int32Array(cap).fill(NONE); // the two smallest group times (own term, each child's subtree)
  const min2 = new Int32Array(cap).fill(NONE);
  let nodes = 1; // node 0: the root
  const stack = new Int32Array(cap);
  let top = 0;
  const node = (d: number): number => {
    depth[nodes] = d;
    return nodes++;
  };
  // Every index below is a node (< nodes ≤ cap) or a stack slot (≤ top < cap).
  const attach = (child: number, to: number): void => {
    parent[child] = to;
    const m = min1[child]!;
    if (m < min1[to]!) {
      min2[to] = min1[to]!;
      min1[to] = m;
    } else if (m < min2[to]!) min2[to] = m;
  };
  // The compressed trie of the sorted terms, from their longest common prefixes (a stack of the open path). The empty
  // term, sorted first, is the root's own (SearchableMap sets it on the root).
  const from = n > 0 && sorted[0] === '' ? 1 : 0;
  if (from === 1) {
    term[0] = 0;
    min1[0] = times[0]!;
  }
  for (let i = from; i < n; i++) {
    const s = sorted[i]!;
    const l = i > from ? commonPrefix(sorted[i - 1]!, s) : 0;
    while (depth[stack[top]!]! > l) {
      const last = stack[top--]!;
      if (depth[stack[top]!]! >= l) attach(last, stack[top]!);
      else {
        const fork = node(l);
        attach(last, fork);
        stack[++top] = fork;
      }
    }
    const t = node(s.length);
    term[t] = i;
    min1[t] = times[i]!;
    stack[++top] = t;
  }
  while (top > 0) {
    const last = stack[top--]!;
    attach(last, stack[top]!);
  }

  // Creation times, then each entry's last-set key: 2·time, +1 unless it is the remainder an intermediate node took.
  const created = new Int32Array(nodes);
  created[0] = -1;
  for (let v = 1; v < nodes; v++) {
    const t = term[v]! >= 0 ? times[term[v]!]! : NONE;
    created[v] = t === min1[v] ? t : min2[v]!;
  }
  const first = new Int32Array(nodes + 1); // entries of node v: [first[v], first[v + 1])
  for (let v = 1; v < nodes; v++) first[parent[v]! + 1]!++;
  for (let v = 0; v < nodes; v++) if (term[v]! >= 0) first[v + 1]!++;
  for (let v = 0; v < nodes; v++) first[v + 1]! += first[v]!;
  const entryCount = first[nodes]!;
  const entries = new Int32Array(entryCount); // a child node, or -(v + 1): node v's own term
  const keys = new Uint32Array(entryCount); // 2·time + 1 < 2^32 for times < 2^31
  const fill = first.slice(0, nodes);
  for (let v = 1; v < nodes; v++) {
    const q = parent[v]!;
    const at = fill[q]!++;
    entries[at] = v;
    keys[at] = 2 * Math.max(created[q]!, created[v]!) + (created[v]! < created[q]! ? 0 : 1);
  }
  for (let v = 0; v < nodes; v++) {
    if (term[v]! < 0) continue;
    const at = fill[v]!++;
    entries[at] = -(v + 1);
    keys[at] = 2 * times[term[v]!]! + 1;
  }
  for (let v = 0; v < nodes; v++) sortEntries(entries, keys, first[v]!, first[v + 1]!);

  // Depth first, the largest key first: entries go on the stack in ascending key order.
  const rank = new Int32Array(n);
  const todo = new Int32Array(entryCount + 1);
  let size = 0;
  let next = 0;
  for (let e = first[0]!; e < first[1]!; e++) todo[size++] = entries[e]!;
  while (size > 0) {
    const x = todo[--size]!;
    if (x < 0) rank[term[-x - 1]!] = next++;
    else for (let e = first[x]!; e < first[x + 1]!; e++) todo[size++] = entries[e]!;
  }
  return rank;
}

/** Length of the longest common prefix, in UTF-16 code units (the tree's own unit). */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Sorts entries [s, e) by ascending key (insertion sort: a node has few entries, the root aside). */
function sortEntries(entries: Int32Array, keys: Uint32Array, s: number, e: number): void {
  if (e - s > 32) {
    const order = Array.from({ length: e - s }, (_, i) => s + i).sort((a, b) => keys[a]! - keys[b]!);
    const es = order.map((i) => entries[i]!);
    const ks = order.map((i) => keys[i]!);
    entries.set(es, s);
    keys.set(ks, s);
    return;
  }
  // s ≤ j < i < e ≤ entries.length = keys.length.
  for (let i = s + 1; i < e; i++) {
    const x = entries[i]!;
    const k = keys[i]!;
    let j = i - 1;
    while (j >= s && keys[j]! > k) {
      entries[j + 1] = entries[j]!;
      keys[j + 1] = keys[j]!;
      j--;
    }
    entries[j + 1] = x;
    keys[j + 1] = k;
  }
}
