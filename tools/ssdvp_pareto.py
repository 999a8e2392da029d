#!/usr/bin/python3
"""Pareto fronts: the points no other point dominates, for any number of objectives.

    pareto_front([(1.2, 0.30), (0.8, 0.45), (1.5, 0.31)], ["minimize", "minimize"])  # [0, 1]

A point dominates another when it is at least as good in every objective and better in one;
equal points do not dominate each other, so both stay on the front.
"""

from typing import Sequence

MINIMIZE, MAXIMIZE = "minimize", "maximize"
GOALS = (MINIMIZE, MAXIMIZE)


def check_goals(goals: Sequence[str]) -> None:
    for goal in goals:
        if goal not in GOALS:
            raise ValueError(f"goal '{goal}' is not allowed; allowed: {', '.join(GOALS)}")


def pareto_front(points: Sequence[Sequence[float | None]], goals: Sequence[str]) -> list[int]:
    """The indices of the non-dominated points, in the input's order. A point missing a value
    (None) is left out: it cannot be compared."""
    check_goals(goals)
    for i, point in enumerate(points):
        if len(point) != len(goals):
            raise ValueError(f"point {i} has {len(point)} values for {len(goals)} goals")
    signs = [1 if goal == MINIMIZE else -1 for goal in goals]
    keyed = sorted((tuple(s * v for s, v in zip(signs, point)), i)
                   for i, point in enumerate(points) if None not in point)
    # In lexicographic order (every value to be minimised) a point's dominators all come
    # before it, and one of them is on the front (dominance is transitive): comparing with the
    # front found so far is enough.
    front: list[tuple[tuple[float, ...], int]] = []
    for key, i in keyed:
        if not any(all(f <= k for f, k in zip(other, key)) and other != key
                   for other, _ in front):
            front.append((key, i))
    return sorted(i for _, i in front)
