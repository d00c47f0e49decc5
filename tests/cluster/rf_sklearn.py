#!/usr/bin/python3
"""rf_sklearn.py - check A-SRPT's random forest (algorithms/asrpt/rf.c)
against scikit-learn's RandomForestRegressor on the same seeded data.

Usage: rf_sklearn.py [RF_TOOL]   (default build/rf_tool)

For each data set below the script writes a CSV to a temporary directory,
runs RF_TOOL on it (the first `train` share of rows trains, the rest test),
fits RandomForestRegressor(n_estimators=100, max_features=1/3,
min_samples_leaf=5, max_depth=16, bootstrap=True) and LinearRegression on
the same split, and prints test R^2 and MAPE (a fraction) side by side.
The two forests draw different random numbers, so only accuracy is
compared: exit 1 if the C forest's R^2 is more than 0.03 below sklearn's
or its MAPE more than 10 % (relative) above it; exit 2 if the tool cannot
be run.

Two closer checks also fail the run: one deterministic tree (no bootstrap,
mtry = p, against DecisionTreeRegressor with the same limits) must reach
nearly the same R^2 (only ties between equally good splits may differ),
and the C OLS must match LinearRegression. Features are rounded to float32
first because sklearn's trees split on float32 copies of X.

scikit-learn is not a dependency of schedbench (Debian: python3-sklearn):
without it the script prints "skipped: ..." and exits 0.
"""
import os
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.linear_model import LinearRegression
    from sklearn.metrics import mean_absolute_percentage_error, r2_score
    from sklearn.tree import DecisionTreeRegressor
except ImportError:
    print("skipped: scikit-learn not installed")
    sys.exit(0)

R2_SLACK = 0.03      # C R^2 may be this much below sklearn's
MAPE_SLACK = 1.10    # C MAPE may be this factor above sklearn's
OLS_TOL = 2e-6       # the tool prints 6 decimals
TREE_TOL = 0.005     # one tree: equally good splits may be tied differently

# --------------------------------------------------------------------------
# Data sets: (name, X, y, train share). Every generator has its own seed.


def log_linear(seed=1, n=4000):
    """The spec's y = ln(x1) + 0.5 x2 + noise, with three pure-noise
    features (so mtry = 5 // 3 = 1 in both forests)."""
    rng = np.random.default_rng(seed)
    x1 = rng.uniform(1, 100, n)
    x2 = rng.uniform(1, 10, n)
    noise = rng.uniform(0, 1, (n, 3))
    y = np.log(x1) + 0.5 * x2 + rng.normal(0, 0.3, n)
    return np.column_stack([x1, x2, noise]), y


def families(seed=2, n=5000, nfam=50):
    """Recurring job families: each has a base log iteration count
    ~ U[ln 1e3, ln 1e5] and its own sensitivities to the batch-size and
    learning-rate multipliers (each in {0.5, 1, 2}); an instance runs on a
    data fraction ~ U[0.25, 1]. Features: family id, a noisy family
    descriptor (log model size, correlated with the base), batch and
    learning-rate multipliers, data fraction, and GPUs (irrelevant).
    Target: ln(iterations) + N(0, 0.2)."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(np.log(1e3), np.log(1e5), nfam)
    alpha = rng.uniform(0.3, 1.0, nfam)
    gamma = rng.uniform(0.1, 0.6, nfam)
    size = 1.5 * base + rng.normal(0, 1.0, nfam)
    fam = rng.integers(0, nfam, n)
    mult = np.array([0.5, 1.0, 2.0])
    b = mult[rng.integers(0, 3, n)]
    lr = mult[rng.integers(0, 3, n)]
    frac = rng.uniform(0.25, 1.0, n)
    gpus = np.array([1.0, 2.0, 4.0, 8.0])[rng.integers(0, 4, n)]
    y = (base[fam] - alpha[fam] * np.log(b) - gamma[fam] * np.log(lr)
         + np.log(frac) + rng.normal(0, 0.2, n))
    X = np.column_stack([fam.astype(float), size[fam], b, lr, frac, gpus])
    return X, y


def families_count(seed=2):
    """The same rows with the iteration count itself as the target:
    heavy-tailed (1e2..1e5), the scale A-SRPT needs."""
    X, y = families(seed)
    return X, np.exp(y)


def friedman15(seed=3, n=8000):
    """Friedman #1 with 15 features (10 irrelevant), shifted by +10 so that
    MAPE is not dominated by targets near 0; 5000 training rows."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 1, (n, 15))
    y = (10 * np.sin(np.pi * X[:, 0] * X[:, 1]) + 20 * (X[:, 2] - 0.5) ** 2
         + 10 * X[:, 3] + 5 * X[:, 4] + 10 + rng.normal(0, 1, n))
    return X, y


DATA = [
    ("log_linear", log_linear, 0.7),
    ("families", families, 0.7),
    ("families_count", families_count, 0.7),
    ("friedman15", friedman15, 0.625),
]

# --------------------------------------------------------------------------


def write_csv(path, X, y):
    names = ["x%d" % j for j in range(X.shape[1])] + ["y"]
    with open(path, "w") as f:
        f.write(",".join(names) + "\n")
        for row, t in zip(X, y):
            f.write(",".join(repr(float(v)) for v in row) + "," + repr(float(t)) + "\n")


def run_tool(tool, path, frac, extra=()):
    try:
        p = subprocess.run([tool, "--train", repr(frac), "--seed", "1"] + list(extra)
                           + [path], capture_output=True, text=True, timeout=600)
    except OSError as e:
        print("error: cannot run '%s': %s" % (tool, e.strerror), file=sys.stderr)
        sys.exit(2)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        print("error: '%s' exited with %d on %s" % (tool, p.returncode, path),
              file=sys.stderr)
        sys.exit(2)
    out = {}
    for line in p.stdout.splitlines():
        k, _, v = line.partition(":")
        out[k.strip()] = v.strip()
    return out


def main():
    tool = sys.argv[1] if len(sys.argv) > 1 else "build/rf_tool"
    if not os.access(tool, os.X_OK):
        print("error: '%s' is not an executable (make build/rf_tool)" % tool,
              file=sys.stderr)
        return 2
    fails = []
    head = "%-15s %11s %6s | %8s %8s | %8s %8s | %7s %7s | %8s %8s | %8s %8s" % (
        "data set", "rows x p", "train", "C R2", "sk R2", "C MAPE", "sk MAPE",
        "C s", "sk s", "C tree", "sk tree", "C OLS", "sk OLS")
    print(head)
    print("-" * len(head))
    with tempfile.TemporaryDirectory(prefix="rf_sklearn-") as tmp:
        for name, gen, frac in DATA:
            X, y = gen()
            X = X.astype(np.float32).astype(np.float64)
            n, p = X.shape
            ntrain = int(frac * n)
            path = os.path.join(tmp, name + ".csv")
            write_csv(path, X, y)
            c = run_tool(tool, path, frac)
            if int(c["train"]) != ntrain:
                fails.append("%s: tool trained on %s rows, expected %d"
                             % (name, c["train"], ntrain))
            Xtr, ytr, Xte, yte = X[:ntrain], y[:ntrain], X[ntrain:], y[ntrain:]
            t0 = time.perf_counter()
            rf = RandomForestRegressor(n_estimators=100, max_features=1 / 3,
                                       min_samples_leaf=5, max_depth=16,
                                       bootstrap=True, random_state=0, n_jobs=1)
            rf.fit(Xtr, ytr)
            sk_secs = time.perf_counter() - t0
            yhat = rf.predict(Xte)
            sk_r2 = r2_score(yte, yhat)
            sk_mape = mean_absolute_percentage_error(yte, yhat)
            c1 = run_tool(tool, path, frac, ["--ntrees", "1", "--bootstrap", "0",
                                             "--mtry", str(p)])
            tree = DecisionTreeRegressor(min_samples_leaf=5, max_depth=16,
                                         random_state=0).fit(Xtr, ytr)
            sk_tree_r2 = r2_score(yte, tree.predict(Xte))
            c_tree_r2 = float(c1["rf_r2"])
            ols = LinearRegression().fit(Xtr, ytr)
            sk_ols_r2 = r2_score(yte, ols.predict(Xte))
            c_r2, c_mape = float(c["rf_r2"]), float(c["rf_mape"])
            c_ols_r2 = float(c["ols_r2"])
            print("%-15s %5d x %3d %6d | %8.4f %8.4f | %8.4f %8.4f | %7.3f %7.3f | %8.4f %8.4f"
                  " | %8.4f %8.4f"
                  % (name, n, p, ntrain, c_r2, sk_r2, c_mape, sk_mape,
                     float(c["rf_fit_seconds"]), sk_secs, c_tree_r2, sk_tree_r2,
                     c_ols_r2, sk_ols_r2))
            if not c_r2 >= sk_r2 - R2_SLACK:
                fails.append("%s: C forest R2 %.4f is more than %.2f below sklearn's %.4f"
                             % (name, c_r2, R2_SLACK, sk_r2))
            if not c_mape <= MAPE_SLACK * sk_mape:
                fails.append("%s: C forest MAPE %.4f is more than %.0f %% above sklearn's %.4f"
                             % (name, c_mape, 100 * (MAPE_SLACK - 1), sk_mape))
            if not abs(c_tree_r2 - sk_tree_r2) <= TREE_TOL:
                fails.append("%s: one C tree R2 %.6f, DecisionTreeRegressor's %.6f"
                             % (name, c_tree_r2, sk_tree_r2))
            if not abs(c_ols_r2 - sk_ols_r2) <= OLS_TOL:
                fails.append("%s: C OLS R2 %.6f differs from LinearRegression's %.6f"
                             % (name, c_ols_r2, sk_ols_r2))
    for f in fails:
        print("FAIL: " + f)
    print("rf_sklearn: %s" % ("FAIL" if fails else "ok"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
