"""tools/ssdvp_pareto.py against a brute force on random point sets."""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ssdvp_pareto import MAXIMIZE, MINIMIZE, pareto_front  # noqa: E402


def brute_force(points, goals):
    """Every point no other point dominates, straight from the definition."""
    def better_or_equal(a, b):
        return [(x <= y) if g == MINIMIZE else (x >= y) for x, y, g in zip(a, b, goals)]

    def dominates(a, b):
        return all(better_or_equal(a, b)) and a != b

    return [i for i, p in enumerate(points)
            if not any(dominates(q, p) for j, q in enumerate(points) if j != i)]


@pytest.mark.parametrize("seed", range(300))
def test_front_matches_brute_force(seed):
    rng = random.Random(seed)
    objectives = rng.randint(1, 4)
    goals = [rng.choice((MINIMIZE, MAXIMIZE)) for _ in range(objectives)]
    # Small integers make ties and duplicates common; floats make them rare.
    draw = (lambda: rng.randint(0, 4)) if seed % 2 else rng.random
    points = [tuple(draw() for _ in range(objectives)) for _ in range(rng.randint(0, 40))]
    assert pareto_front(points, goals) == brute_force(points, goals)


def test_known_front_and_missing_values():
    points = [(1.2, 0.30), (0.8, 0.45), (1.5, 0.31), (None, 0.1), (0.8, 0.45)]
    assert pareto_front(points, [MINIMIZE, MINIMIZE]) == [0, 1, 4]
    assert pareto_front(points, [MINIMIZE, MAXIMIZE]) == [1, 4]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="goal 'smallest' is not allowed; allowed: minimize"):
        pareto_front([(1,)], ["smallest"])
    with pytest.raises(ValueError, match="point 0 has 1 values for 2 goals"):
        pareto_front([(1,)], [MINIMIZE, MINIMIZE])
