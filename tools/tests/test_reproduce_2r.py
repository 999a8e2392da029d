"""Tests of tools/reproduce_2r.py's arithmetic: the OP conversion, the device's logical pages,
the running WAF curve, the victims' mean utilisation and the claims table."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import reproduce_2r as r2  # noqa: E402  (needs the sys.path entry above)


class FakeRun:
    """What waf_curve and cold_share_curve read of a run: the FTL time series rows."""

    def __init__(self, rows):
        self.ftl_timeseries = rows


def row(host, programmed_host, programmed_gc, cold=0, normal=0, phase="measure"):
    return {"phase": phase, "host_write_pages": host, "pages_programmed.host": programmed_host,
            "pages_programmed.gc": programmed_gc, "blocks.gc_groups": cold,
            "blocks.host_groups": normal}


class Reproduce2rTest(unittest.TestCase):
    def test_the_papers_over_provisioning_is_over_the_logical_pages(self):
        self.assertAlmostEqual(r2.ftl_op(0.10), 1 - 1 / 1.1, places=6)
        self.assertAlmostEqual(r2.ftl_op(0.50), 1 / 3, places=6)
        # The platform's floor(physical x (1 - op)): 32768 physical pages at OP 10 %.
        self.assertEqual(r2.logical_pages(r2.ftl_op(0.10)), 29789)

    def test_running_waf_covers_the_last_window_of_writes_and_cumulative_all_of_them(self):
        rows = [row(0, 0, 0, phase="fill")] + [row(h, h, 2 * h if h > 50 else 0)
                                                for h in range(0, 101, 10)]
        curve = r2.waf_curve(FakeRun(rows))
        host, cumulative, running = curve[-1]
        self.assertEqual(host, 100)
        self.assertAlmostEqual(cumulative, 300 / 100)
        # The window is 5 % of 100 pages: from the sample at 90 to the one at 100.
        self.assertAlmostEqual(running, (300 - 270) / 10)
        self.assertEqual(curve[0][0], 10, "the sample before any write is left out")
        self.assertAlmostEqual(curve[0][1], 1.0)

    def test_cold_share_is_the_cold_regions_groups_over_both_regions(self):
        curve = r2.cold_share_curve(FakeRun([row(0, 0, 0, 0, 8), row(10, 10, 0, 6, 2)]))
        self.assertEqual(curve, [(0, 0.0), (10, 0.75)])

    def test_mean_victim_utilisation_takes_the_bucket_middles(self):
        result = {"normal_victim_valid_pages": [2, 0, 2], "victim_bucket_width": 10}
        # Middles 5 and 25 pages of a 40-page stripe, two victims each: 15 / 40.
        self.assertAlmostEqual(r2.mean_victim_utilisation(result, "normal", 40), 15 / 40)
        self.assertIsNone(r2.mean_victim_utilisation(
            {"cold_victim_valid_pages": [0, 0], "victim_bucket_width": 1}, "cold", 40))

    def test_claims_put_the_measured_figures_beside_the_papers_statements(self):
        results = [{"experiment": "skew", "policy": p, "x": alpha, "cumulative_waf": waf}
                   for p, wafs in (("1R-Greedy", (5.0, 4.0)), ("2R-Greedy", (5.1, 3.0)),
                                   ("2R-FIFO", (5.2, 2.5)))
                   for alpha, waf in zip((0.0, 1.0), wafs)]
        claims = dict(r2.claims(results, 64))
        self.assertEqual(claims["alpha 1.0: both 2R well below 1R-Greedy"],
                         "1R 4.000, 2R-Greedy 3.000, 2R-FIFO 2.500")
        self.assertIn("alpha 0.0: spread 4.0%, 2R worse than 1R by +4.0%",
                      claims["alpha <= 0.4: all three within about 5 %, 2R never worse"])


if __name__ == "__main__":
    unittest.main()
