"""scripts/stats_diff.py: what two builds' stats.json of one scenario disagree on."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import stats_diff  # noqa: E402


def stats(waf=1.5, wall=2.0, out="/tmp/a", **more):
    return {"simulator": {"wall_seconds": wall}, "config": {"output": {"dir": out}, "seed": 1},
            "ftl": {"phases": [{"name": "m", "waf": waf}]}, **more}


class StatsDiff(unittest.TestCase):
    def test_wall_clock_and_the_output_directory_do_not_count(self):
        self.assertEqual(stats_diff.compare(stats(), stats(wall=9.0, out="/tmp/b")), (None, []))

    def test_a_changed_value_is_named_by_its_path(self):
        difference, _ = stats_diff.compare(stats(), stats(waf=1.6))
        self.assertEqual(difference, ".ftl.phases[0].waf: 1.5 (base) vs 1.6 (new)")

    def test_an_output_only_the_new_build_writes_is_listed_not_a_difference(self):
        self.assertEqual(stats_diff.compare(stats(), stats(platform={"area": 2.5})),
                         (None, [".platform"]))

    def test_an_output_the_new_build_lost_is_a_difference(self):
        difference, _ = stats_diff.compare(stats(platform={"area": 2.5}), stats())
        self.assertEqual(difference, ".platform only in base")

    def test_lists_of_other_lengths_differ(self):
        longer = stats()
        longer["ftl"]["phases"].append({"name": "n", "waf": 2.0})
        self.assertEqual(stats_diff.compare(stats(), longer)[0], ".ftl.phases: 1 vs 2 entries")


if __name__ == "__main__":
    unittest.main()
