import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LsaModel, createLsaEmbedder, trainLsa } from '../../../../src/core/retrieval/providers/lsa';
import { InputError } from '../../../../src/core/util/diagnostics';

const tokenize = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '');

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

// "car" and "automobile" never appear together, but both co-occur with engine/repair/oil;
// a second topic (fruit) shares nothing with the first.
const toy = [
  'car engine repair',
  'automobile engine repair',
  'car engine oil change',
  'automobile engine oil leak',
  'car engine oil repair',
  'automobile engine repair oil',
  'banana fruit smoothie',
  'apple fruit juice',
  'banana apple fruit salad',
  'apple banana fruit bowl',
];
const toyOptions = { tokenize, dimensions: 2, minDf: 1, maxDfRatio: 1, seed: 7 };

test('synonyms: "car" and "automobile" end up close although they never co-occur', () => {
  const model = trainLsa(toy, toyOptions);
  assert.equal(model.dimension, 2);
  const car = model.embedText('car');
  const automobile = model.embedText('automobile');
  const banana = model.embedText('banana');
  assert.ok(cosine(car, automobile) > 0.9, `cos(car, automobile) = ${cosine(car, automobile)}`);
  assert.ok(cosine(car, banana) < 0.2, `cos(car, banana) = ${cosine(car, banana)}`);
  // A query with only "automobile" prefers a car document over every fruit document.
  const docs = model.docVectors();
  const q = model.embedText('automobile');
  const carDoc = cosine(q, docs[0]);
  for (let i = 6; i < 10; i++) assert.ok(carDoc > cosine(q, docs[i]) + 0.5, `doc ${i}`);
});

test('documents sharing vocabulary are nearer than unrelated ones', () => {
  const model = trainLsa(toy, { ...toyOptions, dimensions: 4 });
  const docs = model.docVectors();
  assert.equal(docs.length, toy.length);
  assert.ok(cosine(docs[0], docs[4]) > cosine(docs[0], docs[8]) + 0.5);
  assert.ok(cosine(docs[7], docs[8]) > cosine(docs[7], docs[1]) + 0.5);
  for (const d of docs) assert.ok(Math.abs(Math.hypot(...d) - 1) < 1e-6, 'unit length');
});

test('docVectors equal embedText of the same training text (documents and queries share one projection)', () => {
  const model = trainLsa(toy, { ...toyOptions, dimensions: 3 });
  model.docVectors().forEach((d, i) => assert.deepEqual(d, model.embedText(toy[i])));
  assert.ok(
    model.embedText('zebra quokka').every((v) => v === 0),
    'unknown words embed as zeros',
  );
});

test('dimensions are clamped to the corpus and the reason is noted', () => {
  const model = trainLsa(toy, { ...toyOptions, dimensions: 256 });
  // 10 documents, 14 distinct terms → at most 10 dimensions.
  assert.ok(model.dimension <= 10, `dimension ${model.dimension}`);
  assert.ok(
    model.notes.some((n) => n.includes('256 requested, at most 10 possible')),
    model.notes.join('; '),
  );
  assert.equal(model.embedText('car').length, model.dimension);
});

test('minDf and maxDfRatio filter the vocabulary (hand-counted on the toy corpus)', () => {
  // df: engine 6, fruit 4, repair 4, oil 4, car 3, automobile 3, banana 3, apple 3; the other 6 terms (change, leak, smoothie, juice, salad, bowl) 1.
  const model = trainLsa(toy, { tokenize, dimensions: 2, minDf: 2, maxDfRatio: 0.5 });
  assert.deepEqual([...model.vocabulary], ['apple', 'automobile', 'banana', 'car', 'fruit', 'oil', 'repair']);
  assert.ok(
    model.notes.some((n) => n.includes('kept 7 of 14 terms')),
    model.notes.join('; '),
  );
});

test('training is deterministic under a fixed seed', () => {
  const a = trainLsa(toy, toyOptions);
  const b = trainLsa(toy, toyOptions);
  assert.deepEqual(a.docVectors(), b.docVectors());
  assert.deepEqual(a.embedText('oil leak'), b.embedText('oil leak'));
  assert.equal(a.fingerprint, b.fingerprint);
});

test('toJSON / fromJSON round trip (through a JSON string) gives identical vectors and id', async () => {
  const model = trainLsa(toy, { ...toyOptions, dimensions: 3 });
  const restored = LsaModel.fromJSON(JSON.parse(JSON.stringify(model.toJSON())), tokenize);
  assert.equal(restored.dimension, model.dimension);
  assert.deepEqual(restored.vocabulary, model.vocabulary);
  assert.deepEqual(restored.docVectors(), model.docVectors());
  for (const q of ['car', 'apple juice', 'engine oil repair']) assert.deepEqual(restored.embedText(q), model.embedText(q));
  assert.equal(createLsaEmbedder(restored).id, createLsaEmbedder(model).id);
});

test('fromJSON rejects foreign or truncated data with a clear message', () => {
  const json = trainLsa(toy, toyOptions).toJSON();
  assert.throws(() => LsaModel.fromJSON({ ...json, format: 'other' }, tokenize), /not a usable LSA model: format/);
  assert.throws(() => LsaModel.fromJSON({ ...json, termVectors: json.termVectors.slice(0, 8) }, tokenize), /termVectors/);
  assert.throws(() => LsaModel.fromJSON(null, tokenize), InputError);
});

test('createLsaEmbedder: id names dimension and model hash; embed() returns embedText vectors', async () => {
  const model = trainLsa(toy, toyOptions);
  const other = trainLsa(toy.slice(0, 9), toyOptions);
  const embedder = createLsaEmbedder(model);
  assert.match(embedder.id, /^lsa:2:[0-9a-f]{16}$/);
  assert.notEqual(createLsaEmbedder(other).id, embedder.id, 'a different model gives a different cache id');
  assert.equal(embedder.dimension, 2);
  const [v1, v2] = await embedder.embed(['car repair', 'apple'], 'query');
  assert.deepEqual(v1, model.embedText('car repair'));
  assert.deepEqual(v2, model.embedText('apple'));
  const aborted = AbortSignal.abort();
  await assert.rejects(embedder.embed(['car'], 'document', aborted));
});

test('no usable vocabulary is an InputError that says what to change', () => {
  // Four terms, each in one of the two documents: all four under the default minDf 2, none above maxDf.
  assert.throws(
    () => trainLsa(['alpha beta', 'gamma delta'], { tokenize }),
    (e: unknown) =>
      e instanceof InputError &&
      /\(4 terms too rare, 0 too common\); lower vector\.embedder\.minDf \(now 2\) or raise vector\.embedder\.maxDfRatio/.test(e.message),
  );
  assert.throws(() => trainLsa([], { tokenize }), InputError);
});
