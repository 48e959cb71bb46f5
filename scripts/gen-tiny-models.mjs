#!/usr/bin/env node
// Writes the two tiny test models the tests load through the `transformers` provider, so that no test needs a
// download or a folder beside the clone:
//
//   node scripts/gen-tiny-models.mjs OUTDIR
//
//   OUTDIR/tiny-embedder/  feature extraction (BertModel-shaped): config.json, WordPiece tokenizer files (tokenizer.json,
//                          tokenizer_config.json, special_tokens_map.json, vocab.txt), onnx/model.onnx (fp32:
//                          input_ids, attention_mask, token_type_ids -> last_hidden_state [B,S,64]) and
//                          onnx/model_quantized.onnx (uint8 word embeddings + DequantizeLinear)
//   OUTDIR/tiny-reranker/  cross-encoder (BertForSequenceClassification-shaped, one logit): the same files,
//                          logits [B,1] = 8*cos(bag(segment A), bag(segment B)) - 4
//
// The weights are NOT trained: the embedder is a bag of random word vectors (+ tiny position/type embeddings,
// LayerNorm, one residual tanh layer, LayerNorm), so texts that share words get a higher cosine; the reranker's logit
// grows with query/passage word overlap. Enough to test loading, tokenising, pooling and reranking offline; nothing
// about retrieval quality. No dependencies (the ONNX protobuf is written by the small encoder below); deterministic
// (fixed seeds, embedded word list), so every machine writes the same bytes. The approach, and the bytes of every
// file but README.md, are those of ../shared/models/gen_tiny_models.mjs, which the tests used before.
// test/helpers/tiny-models.ts runs this once per version of this file into the git-ignored .models/.

import fs from 'node:fs';
import path from 'node:path';

// ---------------------------------------------------------------- args
const argv = process.argv.slice(2);
if (argv.length !== 1 || argv[0].startsWith('-')) {
  console.error('usage: node scripts/gen-tiny-models.mjs OUTDIR');
  process.exit(2);
}
const outDir = argv[0];
const H = 64;
const MAX_POS = 512;

// ---------------------------------------------------------------- deterministic PRNG (mulberry32 + Box-Muller)
function rng(seed) {
  let s = seed >>> 0;
  const u = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    const u1 = Math.max(u(), 1e-12),
      u2 = u();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  };
  return { u, normal };
}
function randn(r, n, std) {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = r.normal() * std;
  return a;
}

// ---------------------------------------------------------------- vocabulary (WordPiece)
// Embedded English text (written for this generator, public domain) + common programming words.
const EMBEDDED_TEXT = `
the of and to a in is it you that he was for on are with as i his they be at one have this from or had by
not word but what some we can out other were all there when up use your how said an each she which do their
time if will way about many then them write would like so these her long make thing see him two has look more
day could go come did number sound no most people my over know water than call first who may down side been
now find any new work part take get place made live where after back little only round man year came show
every good me give our under name very through just form sentence great think say help low line differ turn
cause much mean before move right boy old too same tell does set three want air well also play small end put
home read hand port large spell add even land here must big high such follow act why ask men change went light
kind off need house picture try us again animal point mother world near build self earth father head stand own
page should country found answer school grow study still learn plant cover food sun four between state keep eye
never last let thought city tree cross farm hard start might story saw far sea draw left late run while press
close night real life few north open seem together next white children begin got walk example ease paper group
always music those both mark often letter until mile river car feet care second book carry took science eat room
friend began idea fish mountain stop once base hear horse cut sure watch color face wood main enough plain girl
usual young ready above ever red list though feel talk bird soon body dog family direct pose leave song measure
door product black short numeral class wind question happen complete ship area half rock order fire south problem
piece told knew pass since top whole king space heard best hour better true during hundred five remember step
early hold west ground interest reach fast verb sing listen six table travel less morning ten simple several vowel
toward war lay against pattern slow center love person money serve appear road map rain rule govern pull cold
notice voice unit power town fine certain fly fall lead cry dark machine note wait plan figure star box noun field
rest correct able pound done beauty drive stood contain front teach week final gave green oh quick develop ocean
warm free minute strong special mind behind clear tail produce fact street inch multiply nothing course stay wheel
full force blue object decide surface deep moon island foot system busy test record boat common gold possible plane
stead dry wonder laugh thousand ago ran check game shape equate hot miss brought heat snow tire bring yes distant
fill east paint language among cat dog kitten puppy car truck bus train bicycle weather today tomorrow yesterday
computer software hardware keyboard mouse screen window editor file folder directory path document text search
query result rank score embedding vector model token index database server client request response network error
warning bug fix issue feature release version update install package module library framework language python
javascript typescript java rust go ruby kotlin swift shell bash terminal command line argument option flag config
configuration setting environment variable value type string number boolean array object map set list tuple dict
function method class interface struct enum trait impl return import export default const let var async await
promise callback event listener handler thread process memory cache buffer stream queue stack heap pointer null
undefined true false if else for while switch case break continue try catch throw finally new delete this super
extends implements public private protected static abstract final void int float double char byte long short
test tests unit integration mock assert expect describe suite coverage build compile compiler lint format debug
debugger breakpoint log logging trace profile performance speed fast slow latency throughput benchmark
git commit branch merge rebase push pull clone diff patch repository remote origin tag review
http https url api rest json xml yaml html css web page browser extension plugin vscode code workspace
user users name names email password login logout account session auth authentication permission access
read write open close save load parse serialize encode decode convert sort filter reduce find replace
create remove add get put post delete copy move rename run start stop restart exit help usage
data date time timestamp file files line lines column row table key keys value values field fields record
sum average mean median count total size length width height min max number numbers integer
license copyright permission software free redistribute modify warranty merchantability fitness purpose
`;

function basicTokenize(text) {
  // same spirit as BertPreTokenizer after lowercasing: split on whitespace and punctuation
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function buildVocab() {
  const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const chars = [];
  for (let c = 33; c < 127; c++) chars.push(String.fromCharCode(c)); // printable ASCII (punctuation + alnum)
  const cont = [];
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') cont.push('##' + c);
  const suffixes = [
    's',
    'es',
    'ed',
    'ing',
    'er',
    'ers',
    'ly',
    'ion',
    'tion',
    'ation',
    'ment',
    'ness',
    'able',
    'ible',
    'al',
    'ize',
    'ise',
    'ity',
    'ful',
    'less',
    'est',
    'ive',
    'ous',
    'ic',
    'y',
    'en',
    'or',
    'ism',
    'ist',
    'ify',
    'ence',
    'ance',
    'ship',
    'hood',
    'ward',
    'wise',
    'like',
    'ings',
    'ers',
    'ies',
    'ied',
    'ier',
    'iest',
  ].map((s) => '##' + s);
  const freq = new Map();
  for (const w of basicTokenize(EMBEDDED_TEXT)) if (w.length > 1) freq.set(w, (freq.get(w) ?? 0) + 1);
  // most frequent first, ties alphabetical (deterministic); cap the word list
  const words = [...freq.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 4000)
    .map(([w]) => w);
  const vocab = [];
  const seen = new Set();
  for (const t of [...specials, ...chars, ...cont, ...suffixes, ...words]) {
    if (!seen.has(t)) {
      seen.add(t);
      vocab.push(t);
    }
  }
  return vocab;
}

// ---------------------------------------------------------------- minimal protobuf writer for ONNX
class PB {
  constructor() {
    this.parts = [];
    this.len = 0;
  }
  _push(u8) {
    this.parts.push(u8);
    this.len += u8.length;
  }
  varint(v) {
    // v: number or bigint, non-negative (int64 negatives encoded as 10-byte two's complement)
    let b = BigInt.asUintN(64, BigInt(v));
    const out = [];
    do {
      let byte = Number(b & 0x7fn);
      b >>= 7n;
      if (b) byte |= 0x80;
      out.push(byte);
    } while (b);
    this._push(Uint8Array.from(out));
    return this;
  }
  key(field, wire) {
    return this.varint((field << 3) | wire);
  }
  int(field, v) {
    return this.key(field, 0).varint(v);
  }
  float(field, v) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.key(field, 5)._push(b);
    return this;
  }
  bytes(field, u8) {
    this.key(field, 2).varint(u8.length)._push(u8);
    return this;
  }
  str(field, s) {
    return this.bytes(field, new TextEncoder().encode(s));
  }
  msg(field, pb) {
    return this.bytes(field, pb.finish());
  }
  finish() {
    const o = new Uint8Array(this.len);
    let p = 0;
    for (const x of this.parts) {
      o.set(x, p);
      p += x.length;
    }
    return o;
  }
}
const DT = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7 };
const ATTR = { FLOAT: 1, INT: 2, STRING: 3, INTS: 7 };

function tensor(name, dataType, dims, data) {
  const t = new PB();
  for (const d of dims) t.int(1, d);
  t.int(2, dataType);
  t.str(8, name);
  let raw;
  if (data instanceof Float32Array || data instanceof Uint8Array || data instanceof Int8Array)
    raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  else if (data instanceof BigInt64Array) raw = new Uint8Array(data.buffer);
  else throw new Error('unsupported tensor data');
  // raw_data must be little-endian; typed arrays are host-endian (all supported hosts are LE)
  t.bytes(9, raw);
  return t;
}
const i64 = (name, vals, dims = [vals.length]) => tensor(name, DT.INT64, dims, BigInt64Array.from(vals.map(BigInt)));
const f32 = (name, vals, dims) => tensor(name, DT.FLOAT, dims, vals instanceof Float32Array ? vals : Float32Array.from(vals));

function attr(name, v) {
  const a = new PB().str(1, name);
  if (typeof v === 'number' && Number.isInteger(v)) a.int(20, ATTR.INT).int(3, v);
  else if (typeof v === 'number') a.int(20, ATTR.FLOAT).float(2, v);
  else if (typeof v === 'string') a.int(20, ATTR.STRING).bytes(4, new TextEncoder().encode(v));
  else if (Array.isArray(v)) {
    a.int(20, ATTR.INTS);
    for (const x of v) a.int(8, x);
  } else throw new Error('attr type');
  return a;
}
function node(op, inputs, outputs, attrs = {}, name = undefined) {
  const n = new PB();
  for (const i of inputs) n.str(1, i);
  for (const o of outputs) n.str(2, o);
  n.str(3, name ?? `${op}_${outputs[0]}`);
  n.str(4, op);
  for (const [k, v] of Object.entries(attrs)) n.msg(5, attr(k, v));
  return n;
}
function valueInfo(name, elemType, dims) {
  const shape = new PB();
  for (const d of dims) shape.msg(1, typeof d === 'string' ? new PB().str(2, d) : new PB().int(1, d));
  const tt = new PB().int(1, elemType).msg(2, shape);
  const type = new PB().msg(1, tt);
  return new PB().str(1, name).msg(2, type);
}
function model({ name, nodes, initializers, inputs, outputs, doc }) {
  const g = new PB();
  for (const n of nodes) g.msg(1, n);
  g.str(2, name);
  for (const t of initializers) g.msg(5, t);
  g.str(10, doc);
  for (const i of inputs) g.msg(11, i);
  for (const o of outputs) g.msg(12, o);
  const m = new PB();
  m.int(1, 8); // ir_version 8 (ONNX 1.10+)
  m.str(2, 'gen_tiny_models.mjs'); // producer name kept: the files stay byte for byte those of ../shared/models
  m.str(3, '1');
  m.int(5, 1);
  m.str(6, doc);
  m.msg(7, g);
  m.msg(8, new PB().str(1, '').int(2, 17)); // default domain, opset 17 (LayerNormalization)
  return m.finish();
}

// ---------------------------------------------------------------- graphs
const BS = ['batch_size', 'sequence_length'];
const INPUTS = [valueInfo('input_ids', DT.INT64, BS), valueInfo('attention_mask', DT.INT64, BS), valueInfo('token_type_ids', DT.INT64, BS)];

// word-embedding table: either a fp32 initializer or uint8 + DequantizeLinear
function wordEmbedding(W, V, quantized) {
  if (!quantized) return { nodes: [], inits: [f32('word_embeddings', W, [V, H])] };
  let lo = Infinity,
    hi = -Infinity;
  for (const x of W) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  lo = Math.min(lo, 0);
  hi = Math.max(hi, 0);
  const scale = (hi - lo) / 255;
  const zp = Math.round(-lo / scale);
  const q = new Uint8Array(W.length);
  for (let i = 0; i < W.length; i++) q[i] = Math.max(0, Math.min(255, Math.round(W[i] / scale) + zp));
  return {
    nodes: [node('DequantizeLinear', ['word_embeddings_quant', 'we_scale', 'we_zero_point'], ['word_embeddings'])],
    inits: [
      tensor('word_embeddings_quant', DT.UINT8, [V, H], q),
      f32('we_scale', [scale], []),
      tensor('we_zero_point', DT.UINT8, [], Uint8Array.of(zp)),
    ],
  };
}

function embedderGraph(V, quantized) {
  const r = rng(1234);
  const W = randn(r, V * H, 1.0);
  for (let j = 0; j < H; j++) W[j] = 0; // [PAD] row = 0
  const P = randn(r, MAX_POS * H, 0.02);
  const T = randn(r, 2 * H, 0.02);
  const W1 = randn(r, H * H, 1 / Math.sqrt(H));
  const b1 = randn(r, H, 0.01);
  const ones = new Float32Array(H).fill(1),
    zeros = new Float32Array(H);
  const we = wordEmbedding(W, V, quantized);
  const nodes = [
    ...we.nodes,
    node('Gather', ['word_embeddings', 'input_ids'], ['we'], { axis: 0 }),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], ['te'], { axis: 0 }),
    node('Shape', ['input_ids'], ['ids_shape']),
    node('Gather', ['ids_shape', 'c_one'], ['seq_len'], { axis: 0 }),
    node('Range', ['c_zero', 'seq_len', 'c_one'], ['pos_ids']),
    node('Gather', ['position_embeddings', 'pos_ids'], ['pe'], { axis: 0 }),
    node('Add', ['we', 'te'], ['e1']),
    node('Add', ['e1', 'pe'], ['e2']),
    node('LayerNormalization', ['e2', 'ln1_gamma', 'ln1_beta'], ['x'], { axis: -1, epsilon: 1e-12 }),
    node('MatMul', ['x', 'dense_w'], ['xm']),
    node('Add', ['xm', 'dense_b'], ['xb']),
    node('Tanh', ['xb'], ['xt']),
    node('Add', ['x', 'xt'], ['res']),
    node('LayerNormalization', ['res', 'ln2_gamma', 'ln2_beta'], ['y'], { axis: -1, epsilon: 1e-12 }),
    node('Cast', ['attention_mask'], ['maskf'], { to: DT.FLOAT }),
    node('Unsqueeze', ['maskf', 'c_axes_last'], ['mask3']),
    node('Mul', ['y', 'mask3'], ['last_hidden_state']),
  ];
  const inits = [
    ...we.inits,
    f32('position_embeddings', P, [MAX_POS, H]),
    f32('token_type_embeddings', T, [2, H]),
    f32('ln1_gamma', ones, [H]),
    f32('ln1_beta', zeros, [H]),
    f32('dense_w', W1, [H, H]),
    f32('dense_b', b1, [H]),
    f32('ln2_gamma', ones, [H]),
    f32('ln2_beta', zeros, [H]),
    i64('c_zero', [0], []),
    i64('c_one', [1], []),
    i64('c_axes_last', [-1]),
  ];
  return model({
    name: 'tiny_embedder',
    nodes,
    initializers: inits,
    inputs: INPUTS,
    outputs: [valueInfo('last_hidden_state', DT.FLOAT, ['batch_size', 'sequence_length', H])],
    doc: 'Tiny deterministic BERT-shaped feature extractor for offline tests (random weights, not trained).',
  });
}

function rerankerGraph(V, quantized) {
  const r = rng(5678);
  const W = randn(r, V * H, 1.0);
  for (const id of [0, 1, 2, 3, 4]) for (let j = 0; j < H; j++) W[id * H + j] = 0; // specials contribute nothing
  const we = wordEmbedding(W, V, quantized);
  const nodes = [
    ...we.nodes,
    node('Gather', ['word_embeddings', 'input_ids'], ['we'], { axis: 0 }), // [B,S,H]
    node('Cast', ['attention_mask'], ['maskf'], { to: DT.FLOAT }), // [B,S]
    node('Cast', ['token_type_ids'], ['ttf'], { to: DT.FLOAT }),
    node('Mul', ['maskf', 'ttf'], ['wB']),
    node('Sub', ['maskf', 'wB'], ['wA']),
    node('Unsqueeze', ['wA', 'c_axis1'], ['wA3']), // [B,1,S]
    node('Unsqueeze', ['wB', 'c_axis1'], ['wB3']),
    node('MatMul', ['wA3', 'we'], ['sA']), // [B,1,H]
    node('MatMul', ['wB3', 'we'], ['sB']),
    node('Mul', ['sA', 'sA'], ['sA2']),
    node('ReduceSum', ['sA2', 'c_axes_last'], ['nA2'], { keepdims: 1 }),
    node('Mul', ['sB', 'sB'], ['sB2']),
    node('ReduceSum', ['sB2', 'c_axes_last'], ['nB2'], { keepdims: 1 }),
    node('Mul', ['nA2', 'nB2'], ['nAB2']),
    node('Sqrt', ['nAB2'], ['nAB']),
    node('Add', ['nAB', 'c_eps'], ['den']),
    node('Mul', ['sA', 'sB'], ['sAB']),
    node('ReduceSum', ['sAB', 'c_axes_last'], ['dot'], { keepdims: 0 }), // [B,1]
    node('Squeeze', ['den', 'c_axes_last'], ['den_sq']), // [B,1,1] -> [B,1]
    node('Div', ['dot', 'den_sq'], ['cos']),
    node('Mul', ['cos', 'c_scale'], ['scaled']),
    node('Add', ['scaled', 'c_bias'], ['logits']), // [B,1]
  ];
  const inits = [
    ...we.inits,
    i64('c_axis1', [1]),
    i64('c_axes_last', [-1]),
    f32('c_eps', [1e-6], []),
    f32('c_scale', [8], []),
    f32('c_bias', [-4], []),
  ];
  return model({
    name: 'tiny_reranker',
    nodes,
    initializers: inits,
    inputs: INPUTS,
    outputs: [valueInfo('logits', DT.FLOAT, ['batch_size', 1])],
    doc: 'Tiny deterministic cross-encoder for offline tests: logit = 8*cos(bag(A), bag(B)) - 4 (not trained).',
  });
}

// ---------------------------------------------------------------- tokenizer + configs
function tokenizerJson(vocab) {
  const id = (t) => vocab.indexOf(t);
  const added = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((t) => ({
    id: id(t),
    content: t,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  const sp = (t, type_id) => ({ SpecialToken: { id: t, type_id } });
  const seq = (s, type_id) => ({ Sequence: { id: s, type_id } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [sp('[CLS]', 0), seq('A', 0), sp('[SEP]', 0)],
      pair: [sp('[CLS]', 0), seq('A', 0), sp('[SEP]', 0), seq('B', 1), sp('[SEP]', 1)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}
const tokenizerConfig = (vocab) => ({
  tokenizer_class: 'BertTokenizer',
  do_lower_case: true,
  tokenize_chinese_chars: true,
  strip_accents: null,
  clean_up_tokenization_spaces: true,
  model_max_length: MAX_POS,
  cls_token: '[CLS]',
  sep_token: '[SEP]',
  pad_token: '[PAD]',
  unk_token: '[UNK]',
  mask_token: '[MASK]',
  added_tokens_decoder: Object.fromEntries(
    ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map((t) => [
      String(vocab.indexOf(t)),
      { content: t, lstrip: false, normalized: false, rstrip: false, single_word: false, special: true },
    ]),
  ),
});
const specialTokensMap = { cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' };

function bertConfig(V, extra) {
  return {
    model_type: 'bert',
    hidden_size: H,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: H,
    hidden_act: 'gelu',
    max_position_embeddings: MAX_POS,
    type_vocab_size: 2,
    vocab_size: V,
    pad_token_id: 0,
    layer_norm_eps: 1e-12,
    ...extra,
  };
}

function writeModel(dir, files) {
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    if (content instanceof Uint8Array) fs.writeFileSync(p, content);
    else if (typeof content === 'string') fs.writeFileSync(p, content);
    else fs.writeFileSync(p, JSON.stringify(content, null, 2) + '\n');
  }
}

// ---------------------------------------------------------------- main
const vocab = buildVocab();
const V = vocab.length;
const common = {
  'tokenizer.json': JSON.stringify(tokenizerJson(vocab)),
  'tokenizer_config.json': tokenizerConfig(vocab),
  'special_tokens_map.json': specialTokensMap,
  'vocab.txt': vocab.join('\n') + '\n',
};
const emb = path.join(outDir, 'tiny-embedder');
writeModel(emb, {
  ...common,
  'config.json': bertConfig(V, { architectures: ['BertModel'] }),
  'onnx/model.onnx': embedderGraph(V, false),
  'onnx/model_quantized.onnx': embedderGraph(V, true),
  'README.md': `# tiny-embedder\nGenerated by scripts/gen-tiny-models.mjs. Random (untrained) BERT-shaped feature extractor, hidden size ${H}, vocab ${V}.\nFor offline tests only. Use with pipeline('feature-extraction', 'tiny-embedder', { local_files_only: true }) and pooling 'mean'.\n`,
});
const rr = path.join(outDir, 'tiny-reranker');
writeModel(rr, {
  ...common,
  'config.json': bertConfig(V, {
    architectures: ['BertForSequenceClassification'],
    id2label: { 0: 'LABEL_0' },
    label2id: { LABEL_0: 0 },
    num_labels: 1,
  }),
  'onnx/model.onnx': rerankerGraph(V, false),
  'onnx/model_quantized.onnx': rerankerGraph(V, true),
  'README.md': `# tiny-reranker\nGenerated by scripts/gen-tiny-models.mjs. Untrained cross-encoder: logits[:,0] = 8*cos(bag-of-words(query), bag-of-words(doc)) - 4, vocab ${V}.\nFor offline tests only. Use AutoTokenizer + AutoModelForSequenceClassification with text_pair.\n`,
});
console.log(`wrote ${emb} and ${rr} (vocab ${V}, hidden ${H})`);
