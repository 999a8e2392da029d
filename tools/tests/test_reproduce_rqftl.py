"""Tests of tools/reproduce_rqftl.py's workload model and arithmetic: the size mixes fitted to
Table 2, the TP reuse distance of a uniform workset stream, the chunk choice, the read ratio by
pages, the scenarios, LeaFTL's effective LPNs and the claims table."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import reproduce_rqftl as rq  # noqa: E402  (needs the sys.path entry above)

KIB, MIB, GIB = rq.KIB, rq.MIB, rq.GIB


class ReproduceRqftlTest(unittest.TestCase):
    def test_size_mixes_have_table_2s_mean_and_sd_where_reachable(self):
        for mean, sd in ((28.9, 60.7), (4.5, 12.6), (11.8, 24.9), (80.9, 58.2), (29.7, 7.6)):
            mix, got_mean, got_sd = rq.sizes_of(mean, sd)
            self.assertAlmostEqual(sum(mix.values()), 1.0, places=4)
            self.assertTrue(all(b % rq.PAGE == 0 and b <= 256 * rq.PAGE for b in mix))
            self.assertAlmostEqual(got_mean, mean, delta=0.02 * mean, msg=(mean, sd))
            self.assertAlmostEqual(got_sd, sd, delta=0.05 * sd, msg=(mean, sd))
        # An SD beyond what sizes up to 256 pages allow at that mean comes out as near as it can.
        _, got_mean, got_sd = rq.sizes_of(15.3, 61.2)
        self.assertAlmostEqual(got_mean, 15.3, delta=0.3)
        self.assertLess(got_sd, 61.2)
        self.assertGreater(got_sd, 50.0)

    def test_a_uniform_workset_touches_more_tps_with_smaller_chunks(self):
        span, workset = 100 * GIB, 2 * GIB
        # Whole-TP chunks: the workset's own TPs; smaller ones scatter over more of them.
        self.assertAlmostEqual(rq.touched_tps(workset, 8 * MIB, span), 512)
        self.assertAlmostEqual(rq.touched_tps(workset, 4 * MIB, span), 512)
        one = rq.touched_tps(workset, 1 * MIB, span)
        self.assertGreater(one, 512)
        self.assertLess(one, 4 * 512)
        # 4 slots a TP, each taken with probability 0.02: 1 - 0.98^4 of the 25600 TPs.
        self.assertAlmostEqual(one, 25600 * (1 - 0.98**4), places=6)
        self.assertGreater(rq.touched_tps(workset, 128 * KIB, span), one)

    def test_the_chunk_is_the_one_nearest_table_2s_reuse_distance(self):
        chunk, reuse = rq.chunk_of("cd", 1 * MIB)
        others = [rq.touched_tps(rq.app_workset("cd"), c, rq.app_span("cd"))
                  for c in (MIB, 2 * MIB, 4 * MIB, 8 * MIB)]
        target = rq.APPS["cd"]["reuse"][0]
        self.assertEqual(reuse, min(others, key=lambda x: abs(__import__("math").log(x / target))))
        self.assertGreaterEqual(chunk, 1 * MIB, "no chunk smaller than the largest request")

    def test_the_read_ratio_is_by_pages(self):
        # 4 KiB reads and 128 KiB writes: half the pages read takes 32 reads per write.
        self.assertAlmostEqual(rq.request_read_fraction(0.5, 1, 32), 32 / 33)
        self.assertEqual(rq.request_read_fraction(1.0, 1, 32), 1.0)
        self.assertAlmostEqual(rq.request_read_fraction(0.5, 1, 1), 0.5)

    def test_an_apps_runs_install_its_workset_and_then_execute_it(self):
        point = rq.app_point("gi", "leaftl", 1000, quick=False)
        install, execute = point["scenario"]["workload"]["phases"]
        self.assertEqual(install["name"], rq.INSTALL)
        self.assertTrue(install["streams"][0]["workset_fill"])
        self.assertEqual(install["bytes"], execute["streams"][0]["workset"])
        for key in ("working_set", "workset", "workset_chunk"):
            self.assertEqual(install["streams"][0][key], execute["streams"][0][key])
        self.assertEqual(execute["requests"], 1000)
        self.assertEqual(execute["streams"][0]["read_fraction"], 0.94)
        self.assertTrue(point["scenario"]["ftl"]["leaftl"]["index_overhead"])
        self.assertLessEqual(rq.app_span("ss"), rq.DEVICE_BYTES * (1 - rq.FTL_OP))
        rqftl = rq.app_point("cd", "rqftl", 1000, quick=False, stc_bytes=64 * KIB, tag="_s")
        self.assertEqual(rqftl["scenario"]["cpu"]["harts"], 2)
        self.assertEqual(rqftl["scenario"]["ftl"]["rqftl"]["stc_bytes"], f"{64 * KIB}B")
        self.assertEqual(rq.app_point("cd", "dftl", 1, False)["scenario"]["ftl"]["dftl"],
                         {"whole_tp": True})
        # Figure 10: zero-time training after the installation's commands, which are timed.
        zero = rq.app_point("cd", "rqftl", 1000, quick=False, tag="_z", zero_time=True)
        install = zero["scenario"]["workload"]["phases"][0]
        fill = int(install["streams"][0]["size"].rstrip("B"))
        self.assertEqual(zero["scenario"]["ftl"]["rqftl"],
                         {"zero_time_training": True,
                          "zero_time_after": int(install["bytes"].rstrip("B")) // fill})
        self.assertNotIn("rqftl", rq.app_point("cd", "rqftl", 1, False)["scenario"]["ftl"])

    def test_leaftls_effective_lpns_need_chunks_that_fill_its_groups(self):
        class Run:  # a LeaFTL run: 3 groups of 256 LPNs on flash, 2000 LPNs mapped
            ftl_timeseries = [{"leaftl.mapped_lpns": 2000}]

            def series(self, column, phase):
                return {"leaftl.mapped_lpns": [(1.0, 2000)],
                        "leaftl.groups_on_flash": [(1.0, 3)]}[column]

            def config_value(self, key):
                return {"ftl.leaftl.group_lpns": 256}[key]

        self.assertEqual(rq.effective_lpns(Run(), 1 * MIB), 2000 - 3 * 256)
        self.assertIsNone(rq.effective_lpns(Run(), 128 * KIB),
                          msg="a group on flash may hold fewer mapped LPNs than its span")

    def test_claims_compare_rqftl_with_each_baseline(self):
        results = []
        for app, misses in (("cd", {"dftl": 0.5, "sftl": 0.2, "leaftl": 0.25, "rqftl": 0.1}),
                            ("dl", {"dftl": 0.4, "sftl": 0.3, "leaftl": 0.2, "rqftl": 0.2})):
            for scheme, miss in misses.items():
                results.append({"kind": "app", "app": app, "scheme": scheme, "l2p": rq.L2P,
                                "stc_bytes": None, "read_miss_rate": miss,
                                "read_latency_us": 100 * (1 + miss),
                                "worker_utilisation": 0.02 if scheme == "rqftl" else None,
                                "transfers": 100, "transfer_cycles": 1000})
        results.append({"kind": "app", "app": "cd", "scheme": "rqftl", "l2p": rq.L2P,
                        "stc_bytes": None, "zero_time": True, "read_miss_rate": 0.08,
                        "read_latency_us": 99.0, "worker_utilisation": None,
                        "transfers": 300, "transfer_cycles": 4000})
        rows = {r["claim"]: r for r in rq.claims(results)}
        dftl = rows["mobile: read miss rate lower than DFTL"]
        self.assertAlmostEqual(dftl["ours"], ((1 - 0.1 / 0.5) + (1 - 0.2 / 0.4)) / 2)
        self.assertEqual(dftl["paper"], 0.65)
        self.assertIsNone(rows["synthetic: miss rate up to N x lower than SFTL"]["ours"])
        share = next(r for r in rows.values() if r["claim"].startswith("training"))
        self.assertAlmostEqual(share["ours"], 0.02, msg="the zero-time run is not in the share")
        gain = next(r for r in rows.values() if r["claim"].startswith("Figure 10: read miss"))
        self.assertAlmostEqual(gain["ours"], 0.1 - 0.08, msg="cd alone has both runs")
        self.assertEqual(gain["paper"], 0.08)
        faster = next(r for r in rows.values() if r["claim"].startswith("Figure 10: read lat"))
        self.assertAlmostEqual(faster["ours"], 1 - 99.0 / 110.0)
        work = next(r for r in rows.values() if r["claim"].startswith("Figure 10: transfers"))
        self.assertEqual(work["ours"], "3.00; 4.00")


if __name__ == "__main__":
    unittest.main()
