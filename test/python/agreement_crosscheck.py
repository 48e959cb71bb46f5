"""scikit-learn's Cohen's kappa and the krippendorff package's alpha for Ranklab's agreement cross-check
(test/unit/judging/agreement.test.ts).

Usage: python agreement_crosscheck.py CASES.json
CASES.json: {"kappa": [{"a": [grades], "b": [grades], "labels": [0, ..., G]}],
             "alpha": [[[grade or null per unit] per rater]]}
Prints JSON {"kappa": [{"none", "linear", "quadratic"}], "alpha": [value]} (null where a value is undefined).
"""
import json
import math
import sys

import krippendorff
import numpy as np
from sklearn.metrics import cohen_kappa_score


def finite(x):
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x


def main() -> None:
    with open(sys.argv[1], encoding='utf8') as f:
        cases = json.load(f)
    kappas = []
    for c in cases['kappa']:
        kappas.append({w: finite(cohen_kappa_score(c['a'], c['b'], labels=c['labels'], weights=None if w == 'none' else w))
                       for w in ('none', 'linear', 'quadratic')})
    alphas = []
    for matrix in cases['alpha']:
        data = np.array([[np.nan if v is None else v for v in row] for row in matrix], dtype=float)
        alphas.append(finite(krippendorff.alpha(reliability_data=data, level_of_measurement='ordinal')))
    json.dump({'kappa': kappas, 'alpha': alphas}, sys.stdout)


if __name__ == '__main__':
    main()
