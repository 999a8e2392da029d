"""Tests of tools/reproduce_leaftl.py's pure parts: the scenarios, the figures of a run, the
levels CDF, the ratios and the claims table, on synthetic stats dicts."""

import argparse
import contextlib
import io
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import reproduce_leaftl as lea  # noqa: E402  (needs the sys.path entry above)
import ssdvp_results  # noqa: E402


def leaftl(paper, ours, sftl, dftl, **more):
    block = {"bytes_paper": paper, "bytes_ours": ours, "bytes_sftl": sftl, "bytes_dftl": dftl,
             "segments": 100, "approximate_segments": 10, "single_point_segments": 5,
             "crb_bytes": 40, "mapped_lpns": dftl // 8, "compactions": 0,
             "lpns_learned": 1024, "learn_cycles": 400_000, "plr_cycles": 100_000,
             "lookup_cycles": 30_000, "level_lookups": 200, "update_predictions": 50,
             "levels_searched": {"bucket_width": 1, "counts": [0, 90, 6, 3] + [0] * 11 + [1]}}
    block.update(more)
    return block


def make_run(outcome="workload_done", sftl_end=3000):
    warm = {"name": "warmup", "leaftl": leaftl(500, 2000, 1500, 8000),
            "scheme": {"predictions": 10, "mispredictions": 1}, "map": {"update_oob_reads": 5}}
    measure = {"name": "measure", "leaftl": leaftl(1000, 4000, sftl_end, 16000),
               "scheme": {"predictions": 150, "mispredictions": 20},
               "map": {"update_oob_reads": 50}}
    run = {"leaftl": leaftl(1000, 4000, sftl_end, 16000),
           "scheme": {"predictions": 160, "mispredictions": 21, "evictions": 0},
           "map": {"update_oob_reads": 55}}
    stats = {"outcome": {"outcome": outcome, "message": "m"},
             "config": {"cpu": {"clock": "800MHz"}},
             "host": {"phases": [
                 {"name": "warmup", "commands": 4000},
                 {"name": "measure", "commands": 2000,
                  "ops": {"read": {"commands": 300, "latency_ns": {"mean": 250_000}}}}]},
             "ftl": {"phases": [warm, measure], "run": run}}
    return ssdvp_results.Run(Path("fake"), stats, [], [], [], [], [])


def result(profile, gamma, paper, sftl, dftl, mispredictions=0.05, ours=None):
    counts = [0, 95, 4, 1] + [0] * 12
    return {"profile": profile, "gamma": gamma, "cpu_hz": 800e6,
            "end": {"bytes_paper": paper, "bytes_ours": ours or 3 * paper, "bytes_sftl": sftl,
                    "bytes_dftl": dftl},
            "ratio_dftl": lea.ratio(dftl, paper), "ratio_sftl": lea.ratio(sftl, paper),
            "ratio_dftl_ours": lea.ratio(dftl, ours or 3 * paper),
            "misprediction_ratio": None if gamma == 0 else mispredictions,
            "levels_cdf": lea.levels_cdf(counts), "mean_levels": lea.mean_levels(counts),
            "learn_cycles_per_256": 100_000, "learn_us_per_256": 125.0,
            "lookup_cycles": 200, "lookup_ns": 250.0}


class ReproduceLeaftlTest(unittest.TestCase):
    def test_scenarios_size_the_phases_by_the_footprint_written(self):
        points = lea.points(["leaftl_prxy", "leaftl_prn"], [16, 0], 1.0, False)
        self.assertEqual([(p["profile"], p["gamma"]) for p in points],
                         [("leaftl_prn", 0), ("leaftl_prn", 16), ("leaftl_prxy", 0),
                          ("leaftl_prxy", 16)], "the largest footprint, the smallest gamma first")
        s = points[0]["scenario"]
        self.assertEqual(s["firmware"]["scheme"], "leaftl")
        self.assertEqual(s["ftl"]["leaftl"], {"gamma": 0, "account_sftl": True})
        self.assertEqual(s["ftl"]["fsp"]["policy"], "sorted")
        self.assertEqual(s["ftl"]["write_buffer"]["flush_watermark"], 90)
        self.assertEqual(s["nand"]["oob_size"], "256B")
        self.assertTrue(s["host"]["oracle"])
        warm, measure = s["workload"]["phases"]
        self.assertEqual(warm["streams"][0]["profile"], "leaftl_prn")
        self.assertEqual(warm["streams"][0]["footprint_scale"], 1.0)
        # prn: 4 GiB, 10.8 % reads: the warm-up writes it twice, the measure once.
        self.assertEqual(lea.footprint_bytes("leaftl_prn", 1.0), 4 * 2**30)
        self.assertEqual(lea.footprint_bytes("leaftl_prn", 0.5), 2 * 2**30)
        self.assertEqual(warm["bytes"], f"{lea.phase_bytes('leaftl_prn', 1.0, 2.0)}B")
        self.assertAlmostEqual(lea.phase_bytes("leaftl_prn", 1.0, 2.0) / 2**30,
                               8 / 0.892, places=3)
        self.assertAlmostEqual(lea.phase_bytes("leaftl_prn", 1.0, 1.0) * 2,
                               lea.phase_bytes("leaftl_prn", 1.0, 2.0), delta=65536)
        # The largest footprint fits the device's exported LPNs.
        exported = lea.scale_block(list(lea.PROFILES), 1.0, False)["exported_lpns"] * 4096
        self.assertLess(max(lea.footprint_bytes(p, 1.0) for p in lea.PROFILES), exported)

    def test_quick_runs_fixed_request_counts(self):
        s = lea.points(["leaftl_hm"], [16], 0.5, True)[0]["scenario"]
        self.assertEqual([p.get("requests") for p in s["workload"]["phases"]], [4000, 2000])
        self.assertTrue(all("bytes" not in p for p in s["workload"]["phases"]))

    def test_unknown_names_are_refused_with_the_allowed_ones(self):
        parser = argparse.ArgumentParser()
        self.assertEqual(lea.parse_list("LEAFTL_PRN,leaftl_hm", list(lea.PROFILES), "profile",
                                        parser), ["leaftl_prn", "leaftl_hm"])
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), self.assertRaises(SystemExit):
            lea.parse_list("hm0", list(lea.PROFILES), "profile", parser)
        self.assertIn("unknown profile 'hm0'; allowed: leaftl_hm, leaftl_prn", stderr.getvalue())

    def test_figures_of_a_run(self):
        f = lea.figures_of(make_run())
        self.assertEqual(f["after_warmup"]["bytes_paper"], 500)
        self.assertEqual(f["end"]["bytes_dftl"], 16000)
        self.assertAlmostEqual(f["ratio_dftl"], 16.0)
        self.assertAlmostEqual(f["ratio_sftl"], 3.0)
        self.assertAlmostEqual(f["ratio_dftl_ours"], 4.0)
        # 20 wrong of 150 host predictions; the 50 overwrite predictions apart.
        self.assertAlmostEqual(f["misprediction_ratio"], 20 / 150)
        self.assertEqual(f["update_predictions"], 50)
        # 400,000 cycles for 1024 LPNs: 100,000 per 256, 125 us at 800 MHz.
        self.assertAlmostEqual(f["learn_cycles_per_256"], 100_000)
        self.assertAlmostEqual(f["plr_cycles_per_256"], 25_000)
        self.assertAlmostEqual(f["learn_us_per_256"], 125.0)
        self.assertAlmostEqual(f["lookup_cycles"], 150)
        self.assertAlmostEqual(f["lookup_ns"], 187.5)
        self.assertAlmostEqual(f["read_latency_us"], 250)
        self.assertEqual((f["update_oob_reads"], f["update_oob_reads_run"]), (50, 55))
        self.assertEqual((f["warmup_commands"], f["measure_commands"]), (4000, 2000))
        self.assertAlmostEqual(f["mean_levels"], (90 + 12 + 9 + 15) / 100)
        self.assertEqual(f["levels_cdf"][0], (1, 0.9))
        self.assertEqual(f["levels_cdf"][-1], (15, 1.0))

    def test_no_sftl_count_above_gamma_zero_gives_no_ratio(self):
        f = lea.figures_of(make_run(sftl_end=None))
        self.assertIsNone(f["end"]["bytes_sftl"])
        self.assertIsNone(f["ratio_sftl"])

    def test_a_failed_run_is_refused(self):
        with self.assertRaisesRegex(RuntimeError, "outcome fault"):
            lea.figures_of(make_run(outcome="fault"))

    def test_levels_cdf(self):
        self.assertIsNone(lea.levels_cdf([0] * 16))
        self.assertEqual(lea.levels_cdf([0, 3, 1]), [(1, 0.75), (2, 1.0)])
        self.assertEqual(lea.mean_levels([0, 3, 1]), 1.25)
        self.assertEqual(lea.clock_hz("1.5GHz"), 1.5e9)

    def test_claims_set_ours_beside_the_papers(self):
        results = [result("leaftl_hm", 0, 1000, 3000, 10000),
                   result("leaftl_hm", 16, 800, 2500, 10000, mispredictions=0.05),
                   result("leaftl_prn", 0, 500, 1000, 20000),
                   result("leaftl_prn", 16, 500, None, 20000, mispredictions=0.2)]
        self.assertEqual(lea.gamma_reduction(results, 16), {"leaftl_hm": 1.25, "leaftl_prn": 1.0})
        claims = {claim: (paper, ours) for claim, paper, ours in lea.claims(results)}
        self.assertEqual(claims["Mapping table, DFTL's / LeaFTL's, gamma 0 (range over the "
                                "traces)"], ("7.5-37.7x", "10.0-40.0x"))
        self.assertEqual(claims["Mapping table, SFTL's / LeaFTL's, gamma 0: mean (max)"][1],
                         "2.5x (3.0x)")
        self.assertEqual(claims["Mapping table at gamma 0 / at gamma 16, mean"],
                         ("1.3x", "1.1x"))
        self.assertEqual(claims["Misprediction ratio at gamma 16"][1],
                         "1 of 2 under 10 %; 5.0 % to 20.0 %")
        self.assertEqual(claims["Learning a batch of 256 LPNs, gamma 0"][1],
                         "100,000-100,000 cycles, 125.0-125.0 us at 800 MHz")
        self.assertEqual(claims["Levels searched per lookup, MSR-prn"][1], "1.06 (gamma 0)")
        self.assertEqual(claims["Lookups answered at the topmost level, gamma 0"][1],
                         "2 of 2 at 90 % or more; 95.0 % to 95.0 %")
        self.assertIn("not run", claims["Figure 16b: latency with DRAM shared by table and data "
                                        "cache"][1])
        markdown = lea.markdown({"scale": {}, "wall_seconds": 1, "runs_wall_seconds": 2,
                                 "jobs": 2, "results": [], "claims": lea.claims(results),
                                 "not_run": lea.NOT_RUN})
        self.assertIn("| Mapping table at gamma 0 / at gamma 16, mean | 1.3x | 1.1x |", markdown)
        self.assertIn("Figure 16b", markdown)

    def test_claims_of_nothing_read_n_a(self):
        claims = {claim: ours for claim, _, ours in lea.claims([])}
        self.assertEqual(claims["Mapping table at gamma 0 / at gamma 16, mean"], "n/a")
        self.assertEqual(claims["Misprediction ratio at gamma 16"], "n/a")


if __name__ == "__main__":
    unittest.main()
