"""ir_measures values for Ranklab's RBP / ERR / nERR cross-check (test/unit/metrics/ir-measures-crosscheck.test.ts).

Usage: python metrics18_ir_measures.py QRELS RUN CUTOFF[,CUTOFF...] P[,P...]
Prints JSON {name: {qid: value}} with names in Ranklab's spelling: rbp@P (ir_measures RBP(rel=1, p=P), binary),
err@K (ir_measures ERR@K, i.e. gdeval), nerr@K (gdeval's ERR@K of the run divided by gdeval's ERR@K of the ideal
run: every judged document with grade > 0, best grade first).
"""
import json
import sys

import ir_measures
from ir_measures import ERR, RBP


def main() -> None:
    qrels_path, run_path, cutoffs, ps = sys.argv[1:5]
    cutoffs = [int(k) for k in cutoffs.split(',')]
    ps = [float(p) for p in ps.split(',')]
    qrels = list(ir_measures.read_trec_qrels(qrels_path))
    run = list(ir_measures.read_trec_run(run_path))
    out: dict[str, dict[str, float]] = {}

    measures = {f'err@{k}': ERR @ k for k in cutoffs}
    measures.update({f'rbp@{p:g}': RBP(rel=1, p=p) for p in ps})
    by_measure = {str(m): name for name, m in measures.items()}
    for metric in ir_measures.iter_calc(list(measures.values()), qrels, run):
        out.setdefault(by_measure[str(metric.measure)], {})[metric.query_id] = float(metric.value)

    # The ideal run of each query: its judged documents with grade > 0, best first (scores strictly decreasing).
    ideal = []
    by_query: dict[str, list] = {}
    for q in qrels:
        if q.relevance > 0:
            by_query.setdefault(q.query_id, []).append(q)
    for qid, docs in by_query.items():
        docs.sort(key=lambda q: -q.relevance)
        ideal += [ir_measures.ScoredDoc(qid, q.doc_id, float(len(docs) - i)) for i, q in enumerate(docs)]
    ideal_err = {}
    for metric in ir_measures.iter_calc([ERR @ k for k in cutoffs], qrels, ideal):
        ideal_err[(str(metric.measure), metric.query_id)] = float(metric.value)
    for k in cutoffs:
        name = str(ERR @ k)
        out[f'nerr@{k}'] = {
            qid: (v / ideal_err[(name, qid)] if ideal_err.get((name, qid)) else 0.0)
            for qid, v in out.get(f'err@{k}', {}).items()
        }
    json.dump(out, sys.stdout)


if __name__ == '__main__':
    main()
