"""Tests of tools/reproduce_rl_fsp.py's pure parts: the scenarios, the figures of a run, the RL
reward curve, the averages and the claims table, on synthetic stats dicts."""

import argparse
import contextlib
import io
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import reproduce_rl_fsp as rl  # noqa: E402  (needs the sys.path entry above)
import ssdvp_results  # noqa: E402


def op(commands, mean_ns):
    return {"commands": commands, "latency_ns": {"mean": mean_ns}}


def make_run(fsp=None, series=None):
    """A run whose measured phase read 100 pages (40 from LSB pages) and wrote 200."""
    phase = {"name": "measure", "host_read_pages": 100, "host_write_pages": 200,
             "host_reads_by_page_type": {"lsb": 40, "clsb": 20, "cmsb": 20, "msb": 10},
             "host_reads_lsb_fraction": 40 / 90,
             "cache": {"read_hits": 10, "write_hits": 50, "rewrites": 3},
             "blocks_erased": 12, "waf": 1.5, "series": series or {}}
    if fsp is not None:
        phase["fsp"] = fsp
    stats = {"host": {"phases": [{"name": "precondition"},
                                 {"name": "measure", "duration_s": 2.0,
                                  "ops": {"read": op(30, 300_000), "write": op(10, 1_100_000),
                                          "flush": op(0, 0)}}]},
             "ftl": {"phases": [{"name": "precondition"}, phase]}}
    return ssdvp_results.Run(Path("fake"), stats, [], [], [], [], [])


def result(workload, cache, policy, read, lsb_reads=100, erases=100, share=0.25):
    return {"workload": workload, "cache_mib": cache, "policy": policy,
            "read_latency_us": read, "io_latency_us": 2 * read, "lsb_reads": lsb_reads,
            "lsb_share": share, "gc_erases": erases, "read_hit_ratio": 0.1,
            "write_hit_ratio": 0.5, "policy_time_share": None}


class ReproduceRlFspTest(unittest.TestCase):
    def test_scenarios_scale_the_profiles_requests_and_give_each_policy_its_keys(self):
        points = rl.points(["Baseline-RW", "RL"], ["ts0", "ali121"], [2, 32], 0.0625, False,
                           False)
        self.assertEqual(len(points), 8)
        first = points[0]
        self.assertEqual((first["workload"], first["cache_mib"]), ("ali121", 32),
                         "the longest runs go first")
        measure = first["scenario"]["workload"]["phases"][1]
        self.assertEqual(measure["requests"], round(18565868 / 16))
        self.assertEqual(measure["streams"][0]["footprint_scale"], 0.0625)
        ftl = {(p["policy"], p["cache_mib"]): p["scenario"]["ftl"] for p in points}
        self.assertEqual(ftl["RL", 2]["write_buffer"]["pages"], 256)
        self.assertEqual(ftl["RL", 32]["write_buffer"]["pages"], 4096)
        self.assertEqual(ftl["RL", 2]["fsp"]["policy"], "rl")
        self.assertTrue(ftl["Baseline-RW", 2]["write_buffer"]["clean_entries"])
        self.assertEqual(ftl["Baseline-RW", 2]["fsp"]["policy"], "baseline")

    def test_real_traces_run_whole(self):
        points = rl.points(["Baseline"], [], [8], 0.0625, False, True)
        self.assertEqual({p["workload"] for p in points}, {"tpcc", "ssdsim"})
        self.assertTrue(all("requests" not in p["scenario"]["workload"]["phases"][1]
                            for p in points))

    def test_unknown_names_are_refused_with_the_allowed_ones(self):
        parser = argparse.ArgumentParser()
        self.assertEqual(rl.parse_list("rl,baseline-rw", list(rl.POLICIES), "policy", parser),
                         ["RL", "Baseline-RW"])
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), self.assertRaises(SystemExit):
            rl.parse_list("hm0,hm1", list(rl.PROFILES), "profile", parser)
        self.assertIn("unknown profile 'hm1'; allowed: stg0, ts0, src1_2", stderr.getvalue())

    def test_figures_of_the_measured_phase(self):
        figures = rl.figures_of(make_run({"select_cycles": 8_000_000, "commit_cycles": 800_000,
                                          "selections": 4000}))
        self.assertAlmostEqual(figures["read_latency_us"], 300)
        # Commands weighted: (30 x 300 + 10 x 1100) / 40 us.
        self.assertAlmostEqual(figures["io_latency_us"], 500)
        self.assertEqual(figures["lsb_reads"], 40)
        self.assertAlmostEqual(figures["read_hit_ratio"], 0.1)
        self.assertAlmostEqual(figures["write_hit_ratio"], 0.25)
        self.assertEqual((figures["gc_erases"], figures["rewrites"]), (12, 3))
        self.assertAlmostEqual(figures["policy_cycles_per_selection"], 2000)
        # Select and commit, 8.8e6 cycles at 800 MHz, are 11 ms of the phase's 2 s.
        self.assertAlmostEqual(figures["policy_time_share"], 0.0055)
        self.assertIsNone(figures["reward_curve"])

    def test_counters_not_in_the_firmware_yet_read_none(self):
        figures = rl.figures_of(make_run())
        self.assertIsNone(figures["policy_cycles_per_selection"])
        self.assertIsNone(figures["policy_time_share"])

    def test_reward_curve_averages_per_step_over_the_episodes_between_points(self):
        series = {"fsp.rl.episodes": [0, 0, 1, 1, 3],
                  "fsp.rl.steps": [0, 500, 1000, 1500, 3000],
                  "fsp.rl.reward_gained": [0, 0, 800_000, 900_000, 2_000_000],
                  "fsp.rl.reward_lost": [0, 0, 300_000, 300_000, 600_000]}
        # Episode 1: (800 - 300) / 1000 steps; then episodes 2-3: (1400 - 500) / 2000.
        self.assertEqual(rl.reward_curve(series), [(1, 0.5), (3, 0.45)])
        # The rewarded steps, where counted, lag an episode behind: the first point waits for
        # some, at the fourth sample, (900 - 300) / 500 steps; then (1400 - 600) / 1500.
        series["fsp.rl.rewarded_steps"] = [0, 0, 0, 500, 2000]
        curve = rl.reward_curve(series)
        self.assertEqual([e for e, _ in curve], [1, 3])
        self.assertAlmostEqual(curve[0][1], 1.2)
        self.assertAlmostEqual(curve[1][1], 0.8 / 1.5)
        self.assertIsNone(rl.reward_curve({"fsp.rl.episodes": [0, 1]}))

    def test_averages_are_of_the_per_point_ratios(self):
        results = [result("hm0", 2, "Baseline", 100), result("hm0", 2, "RL", 60),
                   result("ts0", 2, "Baseline", 200), result("ts0", 2, "RL", 160),
                   result("hm0", 8, "RL", 10)]  # no Baseline beside it: left out
        w = set(rl.PROFILES)
        self.assertAlmostEqual(rl.mean_reduction(results, "RL", "Baseline", "read_latency_us",
                                                 w), (0.4 + 0.2) / 2)
        self.assertIsNone(rl.mean_ratio(results, "Frequency", "Baseline", "gc_erases", w))

    def test_claims_set_ours_beside_the_papers_and_n_a_where_missing(self):
        results = []
        for workload in ("hm0", "ts0"):
            results += [result(workload, 2, "Baseline", 100, lsb_reads=100, erases=100),
                        result(workload, 2, "RL", 60, lsb_reads=290, erases=110, share=0.7),
                        result(workload, 2, "Baseline-RW", 90, erases=220)]
        results.append(result("tpcc", 2, "RL", 1))  # a real trace: not in the paper's averages
        claims = {claim: (paper, ours) for claim, paper, ours in rl.claims(results)}
        self.assertEqual(claims["RL lowers mean read latency against Baseline"],
                         ("40.4 %", "40.0 %"))
        self.assertEqual(claims["RL lowers mean read latency against Frequency"][1], "n/a")
        self.assertEqual(claims["LSB page reads, RL against Baseline"], ("2.9x", "2.90x"))
        self.assertEqual(claims["GC erases, RL against Baseline"][1], "+10.0 %")
        self.assertEqual(claims["GC erases, Baseline-RW against Baseline"][1], "2.20x")
        self.assertEqual(
            claims["RL's LSB share of the host reads from flash, mean (2 MiB cache)"][1],
            "70.0 % (70.0 %)")
        overhead = "Grouping policy's time (Frequency, Distance, RL), share of the I/O time"
        self.assertEqual(claims[overhead][1], "n/a")
        results[1]["policy_time_share"], results[4]["policy_time_share"] = 0.001, 0.003
        self.assertEqual(dict((c, o) for c, _, o in rl.claims(results))[overhead],
                         "at most 0.3 % (RL, ts0, 2 MiB); mean RL 0.2 %")
        markdown = rl.markdown({"scale": {}, "wall_seconds": 1, "runs_wall_seconds": 2,
                                "jobs": 2, "results": results, "claims": rl.claims(results)})
        self.assertIn("| RL lowers mean read latency against Baseline | 40.4 % | 40.0 % |",
                      markdown)
        self.assertIn("| hm0 | 2 MiB | 100 | 90 | 60 |", markdown)


if __name__ == "__main__":
    unittest.main()
