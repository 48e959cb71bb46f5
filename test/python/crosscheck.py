"""Independent reference values for Ranklab's statistics and metrics (scipy.stats, ir_measures).

Used by the node tests through child_process: `crosscheck.py versions` prints the package versions (or fails
when a package is missing); otherwise a JSON request on stdin gets a JSON answer on stdout:

  {"stats": [{"a": [...], "b": [...], "permutation_resamples": N, "bootstrap_resamples": N,
              "confidence": 0.95, "seed": S, "points": [x, ...], "exact_bootstrap": bool}, ...]}
    -> per dataset: scipy's paired t-test (ttest_rel), paired sign-flip permutation p (permutation_test,
       permutation_type='samples', statistic mean(b - a); exact when N >= 2^n), paired percentile bootstrap
       (bootstrap, paired=True) and, at each of `points`, the share of scipy's bootstrap distribution below and
       at-or-below it; with exact_bootstrap, the same shares of the exact bootstrap distribution (all n^n
       resamples), for small n.
  {"metrics": {"qrels": PATH, "run": PATH, "measures": ["nDCG@10", "P@5", ...]}}
    -> {"measure": {"query id": value}} from ir_measures (pytrec_eval underneath) for every measure named.
"""
import json
import sys

import numpy as np


def versions():
    import cwl  # cwl_eval: ir_measures' RBP (test/python/metrics18_ir_measures.py)
    import ir_measures
    import scipy
    return {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__, "ir_measures": ir_measures.__version__, "cwl": "present"}


def mean_difference(x, y, axis=-1):
    return np.mean(y - x, axis=axis)


def shares(distribution, points):
    d = np.sort(np.asarray(distribution))
    return [{"below": float(np.searchsorted(d, p, side="left") / d.size), "atOrBelow": float(np.searchsorted(d, p, side="right") / d.size)} for p in points]


def exact_bootstrap_means(differences):
    """Means of all n^n resamples with replacement (each equally likely), for small n (n <= 8)."""
    d = np.asarray(differences, dtype=float)
    n = d.size
    codes = np.arange(n ** n)[:, None] // (n ** np.arange(n))[None, :] % n  # every index tuple, in base n
    return d[codes].mean(axis=1)


def stats(dataset):
    from scipy import stats as st

    a = np.asarray(dataset["a"], dtype=float)
    b = np.asarray(dataset["b"], dtype=float)
    rng = np.random.default_rng(dataset["seed"])
    t = st.ttest_rel(b, a)
    perm = st.permutation_test((a, b), mean_difference, permutation_type="samples", vectorized=True, batch=20_000,
                               n_resamples=dataset["permutation_resamples"], alternative="two-sided", rng=rng)
    boot = st.bootstrap((a, b), mean_difference, paired=True, vectorized=True, batch=20_000, method="percentile",
                        n_resamples=dataset["bootstrap_resamples"], confidence_level=dataset["confidence"], rng=rng)
    out = {
        "t": float(t.statistic), "pTTest": float(t.pvalue),
        "pPermutation": float(perm.pvalue), "permutationExact": bool(perm.null_distribution.size == 2 ** a.size),
        "bootstrapCI": [float(boot.confidence_interval.low), float(boot.confidence_interval.high)],
        "bootstrapShares": shares(boot.bootstrap_distribution, dataset["points"]),
    }
    if dataset.get("exact_bootstrap"):
        out["exactBootstrapShares"] = shares(exact_bootstrap_means(b - a), dataset["points"])
    return out


def metrics(request):
    import ir_measures

    measures = [ir_measures.parse_measure(m) for m in request["measures"]]
    qrels = list(ir_measures.read_trec_qrels(request["qrels"]))
    run = list(ir_measures.read_trec_run(request["run"]))
    out = {str(m): {} for m in measures}
    for r in ir_measures.iter_calc(measures, qrels, run):
        out[str(r.measure)][r.query_id] = float(r.value)
    return out


def main():
    if sys.argv[1:] == ["versions"]:
        print(json.dumps(versions()))
        return
    request = json.load(sys.stdin)
    answer = {}
    if "stats" in request:
        answer["stats"] = [stats(d) for d in request["stats"]]
    if "metrics" in request:
        answer["metrics"] = metrics(request["metrics"])
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
