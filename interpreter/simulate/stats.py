"""Small statistics, in plain Python: intervals, summaries, tests and corrections for
multiple tests."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95 %) of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def r(x: float) -> float:
    """Rounded for reports (and so that sums in another order compare equal)."""
    return round(x, 6)


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """The pooled two-proportion z-test: (z, two-sided p)."""
    if n1 == 0 or n2 == 0:
        return 0.0, 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (k2 / n2 - k1 / n1) / se
    return z, math.erfc(abs(z) / math.sqrt(2))


def welch(a: dict, b: dict) -> tuple[float, float, float]:
    """Welch's t-test on two summaries (n, mean, sd): (t, degrees of freedom, p)."""
    n1, n2 = a.get("n", 0), b.get("n", 0)
    if n1 < 2 or n2 < 2:
        return 0.0, 0.0, 1.0
    v1, v2 = a["sd"] ** 2 / n1, b["sd"] ** 2 / n2
    if v1 + v2 == 0:
        return 0.0, float(n1 + n2 - 2), 1.0 if a["mean"] == b["mean"] else 0.0
    t = (b["mean"] - a["mean"]) / math.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    return t, df, student_p(t, df)


def student_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom."""
    return _incomplete_beta(df / 2, 0.5, df / (df + t * t))


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (a continued fraction)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    )
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _incomplete_beta(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-12:
            break
    return front * h / a


def counted_summary(counts: dict) -> dict[str, float]:
    """``summary`` of the values counted in ``counts`` (value -> how many times), the
    same figures without the list: a run keeps one count per distinct value."""
    n = sum(counts.values())
    if n == 0:
        return {"n": 0}
    ordered = sorted(counts.items())
    total = sum(v * c for v, c in ordered)
    mean = total / n
    sd = math.sqrt(sum(c * (v - mean) ** 2 for v, c in ordered) / (n - 1)) if n > 1 else 0.0
    return {
        "n": n,
        "mean": r(mean),
        "sd": r(sd),
        "min": ordered[0][0],
        "q1": r(_counted_quantile(ordered, n, 0.25)),
        "median": r(_counted_quantile(ordered, n, 0.5)),
        "q3": r(_counted_quantile(ordered, n, 0.75)),
        "max": ordered[-1][0],
    }


def _counted_quantile(ordered: list[tuple[float, int]], n: int, q: float) -> float:
    """``quantile`` of the sorted values that ``ordered`` (value, count) stands for."""
    position = (n - 1) * q
    low = math.floor(position)
    return _nth(ordered, low) + (_nth(ordered, min(low + 1, n - 1)) - _nth(ordered, low)) * (
        position - low
    )


def _nth(ordered: list[tuple[float, int]], k: int) -> float:
    seen = 0
    for value, count in ordered:
        seen += count
        if k < seen:
            return value
    return ordered[-1][0]


def moments(n: int, total: float, squares: float) -> dict[str, float]:
    """n, mean and sd (n - 1) from the count, sum and sum of squares."""
    if n == 0:
        return {"n": 0}
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    return {"n": n, "mean": mean, "sd": math.sqrt(var)}


def rate_difference(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """``k1/n1 - k2/n2`` with Newcombe's 95 % interval (from the two Wilson
    intervals; good with small counts and rates near 0 or 1)."""
    if n1 == 0 or n2 == 0:
        return 0.0, -1.0, 1.0
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, low, high


def mean_difference(a: dict, b: dict) -> tuple[float, float, float, float]:
    """``mean(a) - mean(b)`` of two summaries (n, mean, sd), Welch's 95 % interval and
    two-sided p: (difference, low, high, p)."""
    _, df, p = welch(b, a)
    d = a.get("mean", 0.0) - b.get("mean", 0.0)
    if a.get("n", 0) < 2 or b.get("n", 0) < 2:
        return d, -math.inf, math.inf, 1.0
    se = math.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
    half = t_quantile(df) * se
    return d, d - half, d + half, p


def t_quantile(df: float, p: float = 0.05) -> float:
    """The t with two-sided p-value ``p`` at ``df`` degrees of freedom (bisection,
    60 steps: far below the figures' rounding)."""
    if df <= 0:
        return math.inf
    low, high = 0.0, 1000.0
    for _ in range(60):
        mid = (low + high) / 2
        if student_p(mid, df) > p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values: reject where adjusted p < 0.05 and the
    chance of any false finding among all the tests stays below 5 %."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(pvalues: list[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values: reject where adjusted p < 0.05 and, on
    average, at most 5 % of the findings are false."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i], reverse=True)
    adjusted = [1.0] * m
    running = 1.0
    for position, i in enumerate(order):
        rank = m - position
        running = min(running, pvalues[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted
