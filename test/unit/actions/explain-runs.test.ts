// The actions "explain a document of a saved run" and "why did these documents move" (src/core/actions/explain-runs.ts)
// on a copy of the example workspace, real indexes: runs that can still be reproduced are explained as the core
// explains their configs; a run whose config or corpus changed is refused (explain) or reported (move reasons), the
// same decision in both; an aborted signal stops either with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOT_REPRODUCIBLE, type RunRef, explainRunDocument, moveReasonsOf } from '../../../src/core/actions/explain-runs';
import { addMoveReasons, explainDocument } from '../../../src/core/session/explain';
import { RanklabSession } from '../../../src/core/session/session';
import { InputError } from '../../../src/core/util/diagnostics';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const example = copyOfExample();
const open = () => RanklabSession.open(example, { stateDir: tempDir() });

/** What a saved run of the config records of its making (here taken from the workspace as it is now). */
function runRef(session: RanklabSession, config: string): RunRef {
  return { configHash: session.resolveConfig(config).configHash, corpus: session.corpus().fingerprint };
}

/** Three judged queries and the top three documents of title-boost-3 for each. */
async function moves(session: RanklabSession) {
  const engine = await session.engine(session.resolveConfig('title-boost-3'));
  const out = [];
  for (const [qid, q] of [...session.judgments().queries].slice(0, 3))
    out.push({ qid, text: q.text, moved: (await engine.search(q.text)).docs.slice(0, 3).map((d) => d.id) });
  return out;
}

test('a document of reproducible runs is explained as the core explains their configs', async () => {
  const session = open();
  const qid = [...session.judgments().queries.keys()][1];
  const doc = (await (await session.engine(session.resolveConfig('title-boost-3'))).search(session.judgments().queries.get(qid)!.text))
    .docs[1].id;
  const r = await explainRunDocument(session, {
    candidate: runRef(session, 'title-boost-3'),
    baseline: runRef(session, 'baseline'),
    query: qid,
    doc,
  });
  const alone = open();
  const local = await explainDocument(alone, {
    config: alone.resolveConfig('title-boost-3'),
    baseline: alone.resolveConfig('baseline'),
    query: qid,
    doc,
  });
  assert.deepEqual(r, local);
  assert.equal(r.candidate?.rank, 2);
  assert.ok(r.reason);
  // Without a baseline: the candidate alone, no reason.
  const single = await explainRunDocument(session, { candidate: runRef(session, 'baseline'), query: qid, doc });
  assert.deepEqual(single.candidate, local.baseline);
  assert.equal(single.reason, undefined);
});

test('the moved documents of reproducible runs get the reasons the core gives, for every query given', async () => {
  const session = open();
  const queries = await moves(session);
  const r = await moveReasonsOf(session, { baseline: runRef(session, 'baseline'), candidate: runRef(session, 'title-boost-3'), queries });
  const alone = open();
  const local = {
    queryDeltas: queries.map((q) => ({
      qid: q.qid,
      text: q.text,
      moved: q.moved.map((id) => ({ id, reason: undefined as string | undefined })),
    })),
  };
  await addMoveReasons(alone, alone.resolveConfig('baseline'), alone.resolveConfig('title-boost-3'), local);
  assert.equal(r.reproducible, true);
  assert.equal(r.reasons.length, 9);
  assert.deepEqual(
    r.reasons,
    local.queryDeltas.flatMap((q) => q.moved.map((m) => ({ qid: q.qid, id: m.id, reason: m.reason }))),
  );
});

test('a run whose config or corpus changed: explain refuses with the reason, move reasons say it is not reproducible', async () => {
  const session = open();
  const queries = await moves(session);
  const changed = [
    { ...runRef(session, 'title-boost-3'), configHash: 'another' },
    { ...runRef(session, 'title-boost-3'), corpus: 'another' },
    {},
  ];
  for (const candidate of changed) {
    await assert.rejects(
      explainRunDocument(session, { candidate, query: queries[0].qid, doc: queries[0].moved[0] }),
      (e: Error) => e instanceof InputError && e.message === NOT_REPRODUCIBLE,
    );
    assert.deepEqual(await moveReasonsOf(session, { baseline: runRef(session, 'baseline'), candidate, queries }), {
      reproducible: false,
      reasons: [],
    });
  }
});

test('an aborted signal stops either with its reason', async () => {
  const session = open();
  const queries = await moves(session);
  const abort = new AbortController();
  abort.abort(new Error('stopped by the test'));
  const refs = { baseline: runRef(session, 'baseline'), candidate: runRef(session, 'title-boost-3') };
  await assert.rejects(moveReasonsOf(session, { ...refs, queries }, { signal: abort.signal }), /stopped by the test/);
  await assert.rejects(
    explainRunDocument(session, { ...refs, query: queries[0].qid, doc: queries[0].moved[0] }, { signal: abort.signal }),
    /stopped by the test/,
  );
});
