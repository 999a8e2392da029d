"""Tests of tools/reproduce_leaftl.py's pure parts: the scenarios, the figures of a run, the
levels CDF, the ratios and the claims table, on synthetic stats dicts."""

import argparse
import contextlib
import io
import json
import math
import sys
import tempfile
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


def make_trace_run(outcome="workload_done"):
    """A real trace's run: one phase, "measure"."""
    measure = {"name": "measure", "leaftl": leaftl(1000, 4000, None, 16000),
               "scheme": {"predictions": 40, "mispredictions": 10},
               "map": {"update_oob_reads": 3}}
    stats = {"outcome": {"outcome": outcome, "message": "m"},
             "config": {"cpu": {"clock": "800MHz"}},
             "host": {"phases": [
                 {"name": "measure", "commands": 7000,
                  "ops": {"read": {"commands": 4000, "latency_ns": {"mean": 1_000_000}}}}]},
             "ftl": {"phases": [measure], "run": {**measure, "name": None}}}
    return ssdvp_results.Run(Path("fake"), stats, [], [], [], [], [])


def trace_result(trace, gamma, failed=False):
    if failed:
        return {"trace": trace, "gamma": gamma, "name": f"{trace}_g{gamma}", "failed": True,
                "error": "outcome fault: m", "log": "/x/ssdsim.log"}
    found = lea.figures_of(make_trace_run(), warmup=None)
    found.update({"trace": trace, "gamma": gamma, "wall_seconds": 1.2})
    return found


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


SFTL_CLAIM = ("Figure 16b: mean latency, SFTL's / LeaFTL's, one memory for table and data cache "
              "(table at most 80 %): mean (max)")
DFTL_CLAIM = SFTL_CLAIM.replace("SFTL's", "DFTL's")


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
        self.assertEqual(claims[SFTL_CLAIM], ("1.4x (3.4x)", "not run"))
        self.assertEqual(claims[DFTL_CLAIM], ("1.6x (4.9x)", "not run"))
        markdown = lea.markdown({"scale": {}, "wall_seconds": 1, "runs_wall_seconds": 2,
                                 "jobs": 2, "results": [], "claims": lea.claims(results),
                                 "not_run": {"figure_16b": "Figure 16b is not run: why."}})
        self.assertIn("| Mapping table at gamma 0 / at gamma 16, mean | 1.3x | 1.1x |", markdown)
        self.assertIn("## Not run\n\nFigure 16b is not run: why.", markdown)
        self.assertIn("Wall time: the runs took 2 s between them on 2 jobs; this invocation took "
                      "1 s.", markdown)

    def test_claims_of_nothing_read_n_a(self):
        claims = {claim: ours for claim, _, ours in lea.claims([])}
        self.assertEqual(claims["Mapping table at gamma 0 / at gamma 16, mean"], "n/a")
        self.assertEqual(claims["Misprediction ratio at gamma 16"], "n/a")


MIB = 2**20
# The pass-1 run's memory as memory_use reads it: 256 buffer pages (1 MiB of DRAM), 2 MiB of SRAM
# used of which 1 MiB is the map's, 25,584 B kept by the image.
USE = {"sram_used": 2 * MIB, "sram_reserved": 25_584, "dram_used": MIB,
       "map_region_bytes": MIB, "write_buffer_pages": 256}


def memory_block(regions, sram_used=34_000_000, dram_used=MIB):
    return {"sram": {"budget_bytes": 64 * MIB - 25_584, "used_bytes": sram_used},
            "dram": {"budget_bytes": 8 * MIB, "used_bytes": dram_used},
            "regions": [{"name": n, "bytes": b, "location": "sram"} for n, b in regions.items()]}


def scheme_run(scheme, warm, end, regions, outcome="workload_done", read=(300, 250_000),
               write=(700, 1_000_000)):
    """A finished run of `scheme`: `warm` and `end` are its ftl spans' metrics."""
    def span(name, metrics):
        return {"name": name, **metrics}

    stats = {"outcome": {"outcome": outcome, "message": "m"},
             "config": {"sram": {"size": "64MiB"}, "ftl": {"write_buffer": {"pages": 256}},
                        "cpu": {"clock": "800MHz"}},
             "host": {"phases": [
                 {"name": "warmup", "commands": 10},
                 {"name": "measure", "commands": read[0] + write[0], "ops": {
                     "read": {"commands": read[0], "latency_ns": {"mean": read[1]}},
                     "write": {"commands": write[0], "latency_ns": {"mean": write[1]}},
                     "flush": {"commands": 0, "latency_ns": {}},
                     "trim": {"commands": 0, "latency_ns": {}}}}]},
             "ftl": {"memory": memory_block(regions),
                     "phases": [span("warmup", warm), span("measure", end)], "run": end}}
    return ssdvp_results.Run(Path(scheme), stats, [], [], [], [], [])


DFTL_REGIONS = {"map.dftl.lpn": 4000, "map.dftl.vpn": 4000, "map.dftl.lru": 8000,
                "map.dftl.hash_next": 4000, "map.dftl.flags": 1000, "map.dftl.dirty_next": 4000,
                "map.dftl.buckets": 4096, "map.dftl.dirty_heads": 6556, "map.dftl.patches": 8192}
SFTL_REGIONS = {"map.sftl.tp": 400, "map.sftl.hash_next": 400, "map.sftl.lru": 800,
                "map.sftl.extent": 400, "map.sftl.flags": 100, "map.sftl.dirty_count": 100,
                "map.sftl.dirty_offset": 1600, "map.sftl.dirty_vpn": 3200,
                "map.sftl.buckets": 256, "map.sftl.pool": 100_000, "map.sftl.merged": 4096,
                "map.sftl.evicted": 4096}


def fig16b_result(profile, scheme, latency, failed=False):
    found = {"profile": profile, "scheme": scheme}
    if failed:
        found.update({"failed": True, "error": "ftl: ... (ftl.map_budget)", "log": "x.log"})
    else:
        found.update({"latency_us": latency, "read_latency_us": latency / 2})
    return found


class Figure16bTest(unittest.TestCase):
    def test_memory_is_the_papers_dram_per_device_byte(self):
        # 1 GiB for 2 TiB, on our 8 GiB device: 4 MiB.
        self.assertEqual(lea.device_bytes(), 8 * 2**30)
        self.assertEqual(lea.default_memory_bytes(), 4 * MIB)
        self.assertEqual(lea.size_bytes("4MiB"), 4 * MIB)
        self.assertEqual(lea.size_bytes("1.5KiB"), 1536)
        self.assertEqual(lea.size_bytes("123B"), 123)
        self.assertEqual(lea.size_bytes("123"), 123)

    def test_a_table_that_fits_takes_its_size_and_the_rest_is_cache(self):
        split = lea.memory_split(MIB, 4 * MIB)
        self.assertEqual(split, {"map_budget": MIB, "cache_bytes": 3 * MIB,
                                 "cache_pages": 768, "capped": False})
        # The cache is whole pages: 4 MiB - 1000 B leaves 1023 pages and 3096 B unused.
        self.assertEqual(lea.memory_split(1000, 4 * MIB)["cache_pages"], 1023)

    def test_a_table_larger_than_80_percent_gets_80_percent(self):
        split = lea.memory_split(5 * MIB, 4 * MIB)
        self.assertEqual(split["map_budget"], int(0.8 * 4 * MIB))
        self.assertEqual(split["cache_bytes"], 4 * MIB - int(0.8 * 4 * MIB))
        self.assertEqual(split["cache_pages"], 204)  # 838,861 B
        self.assertTrue(split["capped"])
        # Exactly 80 % is not capped.
        self.assertFalse(lea.memory_split(int(0.8 * 4 * MIB), 4 * MIB)["capped"])

    def test_the_budget_is_never_below_the_keys_minimum_and_the_cache_needs_a_page(self):
        self.assertEqual(lea.memory_split(100, 4 * MIB)["map_budget"], 1024)
        with self.assertRaisesRegex(ValueError, "no page for the data cache"):
            lea.memory_split(MIB, 4096)

    def test_memory_sizes_follow_the_budget_and_the_cache(self):
        # What the other runs have is enough for a 4 MiB split.
        self.assertEqual(lea.memory_sizes(USE, 3 * MIB, 1000), (64 * MIB, 8 * MIB))
        # 20,000 pages of cache: 78.1 MiB of DRAM, rounded up; SRAM: 60 MiB of budget, the
        # pass-1 arena outside the map (1 MiB) times 20,000 / 256 slots, the image's part.
        sram, dram = lea.memory_sizes(USE, 60 * MIB, 20_000)
        self.assertEqual(dram, 79 * MIB)
        self.assertEqual(sram, lea.ceil_mib(60 * MIB + MIB * 20_000 / 256 + 25_584))
        self.assertEqual(sram, 139 * MIB)
        # DRAM the pass-1 run used beyond its buffer's pages stays.
        self.assertEqual(lea.memory_sizes({**USE, "dram_used": MIB + 5 * MIB}, MIB, 2048)[1],
                         13 * MIB)
        with self.assertRaisesRegex(ValueError, "past the platform"):
            lea.memory_sizes(USE, 250 * MIB, 20_000)

    def test_dftl_and_sftl_tables_are_the_budget_holding_what_they_cached(self):
        # DFTL: 25 B of slot arrays per mapping and a bucket, besides heads, patches and the
        # alignment of 9 allocations.
        self.assertEqual(lea.dftl_table_bytes(DFTL_REGIONS, 100),
                         6556 + 8192 + 72 + 100 * 29)
        # SFTL, 100 slots of 70 B (+ a 4 B bucket); a typical extent of 4 KiB pages is
        # 4 (2 + 32 + 2 + 8) = 176 B. Few TPs, a big pool: the pool binds.
        fixed = 4096 + 4096 + 12 * 8 + 8
        raw = 4 * (2 + 1024)
        self.assertEqual(lea.sftl_table_bytes(SFTL_REGIONS, 10, 50_000),
                         fixed + math.ceil((50_000 + raw) * (74 + 176) / 176))
        # Many TPs with small extents: the slots bind.
        self.assertEqual(lea.sftl_table_bytes(SFTL_REGIONS, 1000, 1000),
                         fixed + 1000 * (74 + 176))

    def test_pass_one_takes_the_larger_sample(self):
        lea_run = scheme_run("leaftl", {"leaftl": {"bytes_ours": 5000}, "map": {"table_bytes": 1},
                                        "scheme": {"evictions": 0}},
                             {"leaftl": {"bytes_ours": 4000}, "map": {"table_bytes": 2},
                              "scheme": {"evictions": 0}}, {"map.leaftl.pool": 10_000})
        table = lea.table_of(lea_run, "leaftl")
        self.assertEqual(table["table_bytes"], 5000 + 16)  # + the pool's alignment
        self.assertEqual(table["table_gauge_bytes"], 2)
        self.assertEqual(table["use"], {"sram_used": 34_000_000, "sram_reserved": 25_584,
                                        "dram_used": MIB, "map_region_bytes": 10_000,
                                        "write_buffer_pages": 256})
        dftl = scheme_run("dftl", {"map": {"translatable_lpns": 50, "table_bytes": 400}},
                          {"map": {"translatable_lpns": 100, "table_bytes": 800},
                           "scheme": {"evictions": 0}}, DFTL_REGIONS)
        table = lea.table_of(dftl, "dftl")
        self.assertEqual(table["table_bytes"], lea.dftl_table_bytes(DFTL_REGIONS, 100))
        self.assertEqual((table["table_gauge_bytes"], table["evictions"]), (800, 0))
        sftl = scheme_run("sftl", {"map": {"translatable_lpns": 2048, "table_bytes": 9000}},
                          {"map": {"translatable_lpns": 3072, "table_bytes": 8000}},
                          SFTL_REGIONS)
        self.assertEqual(lea.table_of(sftl, "sftl")["table_bytes"],
                         lea.sftl_table_bytes(SFTL_REGIONS, 3, 9000))
        with self.assertRaisesRegex(RuntimeError, "outcome fault"):
            lea.table_of(scheme_run("dftl", {}, {}, DFTL_REGIONS, outcome="fault"), "dftl")

    def test_table_runs_swap_the_scheme_of_the_gamma_zero_scenario(self):
        base = lea.points(["leaftl_prxy"], [0], 1.0, False)[0]["scenario"]
        for scheme in ("sftl", "dftl"):
            point = lea.table_point("leaftl_prxy", scheme, 1.0, False)
            s = point["scenario"]
            self.assertEqual((point["name"], point["kind"]), (f"leaftl_prxy_{scheme}_table",
                                                              "table"))
            self.assertEqual(s["firmware"]["scheme"], scheme)
            self.assertNotIn("leaftl", s["ftl"])
            self.assertEqual(s["ftl"]["map_budget"], lea.MAP_BUDGET)
            self.assertEqual(s["workload"], base["workload"])
            self.assertEqual((s["seed"], s["nand"], s["ftl"]["write_buffer"]),
                             (base["seed"], base["nand"], base["ftl"]["write_buffer"]))

    def test_figure_16b_runs_split_the_memory(self):
        base = lea.points(["leaftl_prxy"], [0], 1.0, False)[0]["scenario"]
        table = {"table_bytes": 300_000, "table_gauge_bytes": 8000, "evictions": 0, "use": USE}
        point = lea.fig16b_point("leaftl_prxy", "leaftl", 1.0, False, table, 4 * MIB)
        s = point["scenario"]
        self.assertEqual(point["name"], "leaftl_prxy_fig16b_leaftl")
        self.assertEqual(s["firmware"]["scheme"], "leaftl")
        self.assertEqual(s["ftl"]["map_budget"], "300000B")
        self.assertEqual(s["ftl"]["leaftl"], {"gamma": 0, "batch_pages": 256})
        self.assertEqual(s["ftl"]["write_buffer"],
                         {"pages": (4 * MIB - 300_000) // 4096, "location": "dram",
                          "flush_watermark": 90, "clean_entries": True})
        self.assertEqual((s["sram"]["size"], s["dram"]["size"]), ("64MiB", "8MiB"))
        self.assertEqual(s["workload"], base["workload"])
        self.assertEqual(s["ftl"]["fsp"], base["ftl"]["fsp"])
        self.assertEqual((point["map_budget"], point["capped"], point["memory_bytes"]),
                         (300_000, False, 4 * MIB))
        big = {**table, "table_bytes": 10 * MIB}
        point = lea.fig16b_point("leaftl_prxy", "dftl", 1.0, True, big, 4 * MIB)
        s = point["scenario"]
        self.assertNotIn("leaftl", s["ftl"])
        self.assertEqual(s["ftl"]["map_budget"], f"{int(0.8 * 4 * MIB)}B")
        self.assertEqual(s["ftl"]["write_buffer"]["pages"], 204)
        self.assertTrue(point["capped"])
        self.assertEqual([p.get("requests") for p in s["workload"]["phases"]], [4000, 2000])
        # A cache larger than the other runs' DRAM raises it.
        point = lea.fig16b_point("leaftl_prxy", "sftl", 1.0, False, table, 64 * MIB)
        self.assertEqual(point["scenario"]["dram"]["size"], "64MiB")

    def test_latency_of_every_host_command(self):
        run = scheme_run("leaftl", {}, {"map": {"hit_ratio": 0.5}, "scheme": {"evictions": 7},
                                        "leaftl": {"groups_relearned": 4},
                                        "cache": {"read_hits": 3}}, {})
        f = lea.latency_of(run)
        # 300 reads at 250 us and 700 writes at 1000 us.
        self.assertAlmostEqual(f["latency_us"], (300 * 250 + 700 * 1000) / 1000)
        self.assertAlmostEqual(f["read_latency_us"], 250)
        self.assertAlmostEqual(f["write_latency_us"], 1000)
        self.assertEqual((f["commands"], f["map_hit_ratio"], f["map_evictions"],
                          f["cache_read_hits"], f["groups_relearned"]), (1000, 0.5, 7, 3, 4))
        with self.assertRaisesRegex(RuntimeError, "outcome fault"):
            lea.latency_of(scheme_run("dftl", {}, {}, DFTL_REGIONS, outcome="fault"))

    def test_ratios_and_claims_skip_failed_points(self):
        results = [fig16b_result("leaftl_hm", "leaftl", 100),
                   fig16b_result("leaftl_hm", "sftl", 150),
                   fig16b_result("leaftl_hm", "dftl", 300),
                   fig16b_result("leaftl_prxy", "leaftl", 200),
                   fig16b_result("leaftl_prxy", "sftl", 400),
                   fig16b_result("leaftl_prxy", "dftl", None, failed=True),
                   fig16b_result("leaftl_usr", "leaftl", None, failed=True),
                   fig16b_result("leaftl_usr", "sftl", 100),
                   fig16b_result("leaftl_usr", "dftl", 100)]
        ratios = lea.fig16b_ratios(results)
        self.assertEqual(ratios["sftl"], {"per_profile": {"leaftl_hm": 1.5, "leaftl_prxy": 2.0},
                                          "mean": 1.75, "max": 2.0})
        self.assertEqual(ratios["dftl"], {"per_profile": {"leaftl_hm": 3.0}, "mean": 3.0,
                                          "max": 3.0})
        self.assertEqual(lea.fig16b_ratios(results, "read_latency_us")["sftl"]["mean"], 1.75)
        claims = {claim: (paper, ours) for claim, paper, ours in lea.claims([], results)}
        self.assertEqual(claims[SFTL_CLAIM], ("1.4x (3.4x)", "1.8x (2.0x) over 2 of 3 profiles; "
                                                             "failed: leaftl_usr leaftl"))
        self.assertEqual(claims[DFTL_CLAIM][1], "3.0x (3.0x) over 1 of 3 profiles; failed: "
                                                "leaftl_prxy dftl, leaftl_usr leaftl")
        self.assertEqual({c: o for c, _, o in lea.claims([], [])}[SFTL_CLAIM],
                         "n/a (n/a) over 0 of 0 profiles")
        markdown = lea.fig16b_markdown({"memory_bytes": 4 * MIB, "memory_source": "--memory",
                                        "results": results})
        row = next(line for line in markdown if line.startswith("| leaftl_prxy | dftl |"))
        self.assertTrue(row.endswith("| FAILED: ftl: ... (ftl.map_budget) (x.log) |"), row)
        row = next(line for line in markdown if line.startswith("| leaftl_prxy | sftl |"))
        self.assertIn("| 400.0 | 200.0 | 2.00 |", row)

    def test_a_failure_names_the_firmwares_message(self):
        with tempfile.TemporaryDirectory() as scratch:
            (Path(scratch) / "ssdsim.log").write_text(
                "ftl: 1677721 LPNs, 885 KiB of SRAM used of 65511 KiB, 32 KiB of DRAM\n"
                "  summary line\n"
                "ftl: scheme leaftl: group 1's segments do not fit the map budget "
                "(ftl.map_budget): 8 of 8 pool bytes live\n"
                "ssdsim: hart 0 reported a fault\n")
            self.assertEqual(lea.failure_reason(scratch, RuntimeError("x: ssdsim failed")),
                             "ftl: scheme leaftl: group 1's segments do not fit the map budget "
                             "(ftl.map_budget): 8 of 8 pool bytes live; ssdsim: hart 0 reported "
                             "a fault")
            self.assertEqual(lea.failure_reason(Path(scratch) / "none",
                                                RuntimeError("outcome fault: m\nmore")),
                             "outcome fault: m")


class RealTracesTest(unittest.TestCase):
    def test_trace_runs_replay_each_trace_once_on_the_profile_runs_device(self):
        points = lea.trace_points(lea.TRACES, [16, 0])
        self.assertEqual([(p["trace"], p["gamma"], p["name"]) for p in points],
                         [("tpcc", 0, "tpcc_g0"), ("tpcc", 16, "tpcc_g16"),
                          ("ssdsim", 0, "ssdsim_g0"), ("ssdsim", 16, "ssdsim_g16")])
        self.assertTrue(all(p["kind"] == "trace" for p in points))
        s = points[0]["scenario"]
        self.assertEqual(s["name"], "tpcc_g0")
        self.assertEqual(s["ftl"]["leaftl"], {"gamma": 0, "account_sftl": True})
        self.assertEqual(points[1]["scenario"]["ftl"]["leaftl"],
                         {"gamma": 16, "account_sftl": False})
        # The profile runs' device and settings; only the name and the workload differ.
        profile = lea.scenario("tpcc_g0", "leaftl_prxy", 0, 1.0, False)
        self.assertEqual({k: v for k, v in s.items() if k != "workload"},
                         {k: v for k, v in profile.items() if k != "workload"})
        # One phase, named as the profiles' measured one: the trace once, whole.
        (phase,) = s["workload"]["phases"]
        self.assertEqual(phase["name"], lea.MEASURED)
        self.assertNotIn("requests", phase)
        self.assertNotIn("bytes", phase)
        (stream,) = phase["streams"]
        self.assertEqual(stream["name"], "tpcc")
        self.assertTrue(stream["trace"].endswith("shared/traces/tpcc-small.trace"))
        self.assertEqual((stream["format"], stream["fold"], stream["follow_timestamps"]),
                         ("disksim", True, True))
        ssdsim = points[2]["scenario"]["workload"]["phases"][0]["streams"][0]
        self.assertEqual(ssdsim["time_scale"], 0.001)
        self.assertTrue(ssdsim["trace"].endswith("shared/traces/ssdsim-example.ascii"))
        # A request limit cuts the trace.
        cut = lea.trace_points(["ssdsim"], [0], requests=500)[0]["scenario"]
        self.assertEqual(cut["workload"]["phases"][0]["requests"], 500)

    def test_the_traces_exist(self):
        for stream in lea.TRACES.values():
            self.assertTrue(Path(stream["trace"]).is_file(), stream["trace"])

    def test_figures_of_a_one_phase_run(self):
        f = lea.figures_of(make_trace_run(), warmup=None)
        self.assertIsNone(f["after_warmup"])
        self.assertIsNone(f["warmup_commands"])
        self.assertEqual(f["measure_commands"], 7000)
        self.assertEqual(f["end"]["bytes_paper"], 1000)
        self.assertIsNone(f["ratio_sftl"])
        self.assertAlmostEqual(f["ratio_dftl"], 16.0)
        self.assertAlmostEqual(f["misprediction_ratio"], 0.25)
        self.assertAlmostEqual(f["read_latency_us"], 1000)
        self.assertEqual(f["read_commands"], 4000)
        # The profiles' two-phase reading needs the warm-up phase.
        with self.assertRaises(Exception):
            lea.figures_of(make_trace_run())
        with self.assertRaisesRegex(RuntimeError, "outcome fault"):
            lea.figures_of(make_trace_run(outcome="fault"), warmup=None)

    def test_summary_md_has_the_traces_rows_and_the_claims_stay_the_profiles(self):
        results = [result("leaftl_hm", 0, 1000, 3000, 10000)]
        traces = [trace_result("tpcc", 0), trace_result("ssdsim", 0, failed=True)]
        summary = {"scale": {}, "wall_seconds": 1, "runs_wall_seconds": 2, "jobs": 1,
                   "results": [], "traces": traces, "claims": lea.claims(results),
                   "not_run": {}}
        markdown = lea.markdown(summary)
        self.assertIn("## Real traces", markdown)
        self.assertIn("From the profiles' runs alone", markdown)
        row = next(line for line in markdown.splitlines() if line.startswith("| tpcc | 0 |"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        header = next(line for line in markdown.splitlines() if line.startswith("| trace |"))
        self.assertEqual(len(cells), len(header.strip("|").split("|")))
        self.assertEqual(cells[2:8], ["7,000 (4,000)", "2,000", "1,000", "4,000", "n/a",
                                      "16,000"])
        self.assertEqual(cells[8:11], ["16.0", "n/a", "4.00"])  # DFTL's, SFTL's / LeaFTL's
        self.assertEqual(cells[14], "25.0 %")
        failed = next(line for line in markdown.splitlines() if line.startswith("| ssdsim |"))
        self.assertIn("FAILED: outcome fault: m (/x/ssdsim.log)", failed)
        self.assertEqual(failed.count("|"), header.count("|"))
        # The claims are the profiles' alone: DFTL / LeaFTL is hm's 10x, not tpcc's 16x.
        claims = {claim: ours for claim, _, ours in summary["claims"]}
        self.assertEqual(claims["Mapping table, DFTL's / LeaFTL's, gamma 0 (range over the "
                                "traces)"], "10.0-10.0x")
        # Without --real-traces: no section, and the claims' note as before.
        summary["traces"] = None
        self.assertNotIn("Real traces", lea.markdown(summary))
        del summary["traces"]
        self.assertNotIn("Real traces", lea.markdown(summary))

    def test_scale_block_names_the_traces_only_when_replayed(self):
        self.assertNotIn("traces", lea.scale_block(["leaftl_hm"], 1.0, True))
        block = lea.scale_block(["leaftl_hm"], 1.0, True, traces=lea.TRACES)
        self.assertEqual(sorted(block["traces"]), ["ssdsim", "tpcc"])
        self.assertEqual(block["traces"]["tpcc"]["name"], "tpcc")
        self.assertIn("one phase", block["trace_phases"])


# A stand-in for ssdsim: reads the scenario (JSON), writes a stats.json whose figures follow the
# scheme and the map budget; LeaFTL stops naming ftl.map_budget below 200,000 B, as the firmware
# does when its segments do not fit.
FAKE_SSDSIM = r"""
import json, sys
from pathlib import Path
s = json.loads(Path(sys.argv[1]).read_text())
out = Path(sys.argv[3])
scheme, ftl = s["firmware"]["scheme"], s["ftl"]
units = {"MiB": 2**20, "KiB": 2**10, "B": 1}
budget = next(int(float(ftl["map_budget"][:-len(u)]) * f) for u, f in units.items()
              if ftl["map_budget"].endswith(u))
print("ftl: 1677721 LPNs, 885 KiB of SRAM used of 65511 KiB, 32 KiB of DRAM")
if scheme == "leaftl" and budget < 200000:
    print("ftl: scheme leaftl: group 7's segments do not fit the map budget (ftl.map_budget)")
    sys.exit(3)
pages = ftl["write_buffer"]["pages"]
regions = {"leaftl": {"map.leaftl.pool": 1000},
           "dftl": {"map.dftl.lpn": 4000, "map.dftl.vpn": 4000, "map.dftl.lru": 8000,
                    "map.dftl.hash_next": 4000, "map.dftl.flags": 1000,
                    "map.dftl.dirty_next": 4000, "map.dftl.buckets": 4096,
                    "map.dftl.dirty_heads": 6556, "map.dftl.patches": 8192},
           "sftl": {"map.sftl.tp": 400, "map.sftl.hash_next": 400, "map.sftl.lru": 800,
                    "map.sftl.extent": 400, "map.sftl.flags": 100, "map.sftl.dirty_count": 100,
                    "map.sftl.dirty_offset": 1600, "map.sftl.dirty_vpn": 3200,
                    "map.sftl.merged": 4096, "map.sftl.evicted": 4096}}[scheme]
span = {"leaftl": {"bytes_ours": 150000, "bytes_paper": 1000, "bytes_dftl": 8000},
        "map": {"translatable_lpns": 200000, "table_bytes": 800000},
        "scheme": {"evictions": 0, "predictions": 0, "mispredictions": 0}}
# Latency falls with the data cache: 1000 us at 0 pages.
latency = 1000000 * 1000 / (1000 + pages)
stats = {"outcome": {"outcome": "workload_done", "message": "done"},
         "config": {"sram": {"size": s["sram"]["size"]},
                    "ftl": {"write_buffer": {"pages": pages}}, "cpu": {"clock": "800MHz"}},
         "simulator": {"wall_seconds": 1.5},
         "host": {"phases": [{"name": "warmup", "commands": 10},
                             {"name": "measure", "commands": 10, "ops": {
                                 "read": {"commands": 4, "latency_ns": {"mean": latency}},
                                 "write": {"commands": 6, "latency_ns": {"mean": latency}}}}]},
         "ftl": {"memory": {"sram": {"budget_bytes": 64 * 2**20 - 25584,
                                     "used_bytes": 2**20 + sum(regions.values())},
                            "dram": {"budget_bytes": 8 * 2**20, "used_bytes": pages * 4096},
                            "regions": [{"name": n, "bytes": b, "location": "sram"}
                                        for n, b in regions.items()]},
                 "phases": [{"name": "warmup", **span}, {"name": "measure", **span}],
                 "run": span}}
out.mkdir(parents=True, exist_ok=True)
(out / "stats.json").write_text(json.dumps(stats))
(out / "latency.csv").write_text("phase,op,lower_ns,upper_ns,count\n")
(out / "timeseries.csv").write_text("phase\n")
"""


def fake_run_args(scratch, program, jobs):
    """run_all's arguments, with `program` (Python) as ssdsim."""
    ssdsim = scratch / "ssdsim"
    ssdsim.write_text(f"#!{sys.executable}\n{program}")
    ssdsim.chmod(0o755)
    return argparse.Namespace(scale=1.0, quick=True, resume=False, ssdsim=str(ssdsim), jobs=jobs)


class RunAllTest(unittest.TestCase):
    def test_pass_two_follows_pass_one_and_a_failure_is_a_point(self):
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            args = fake_run_args(scratch, FAKE_SSDSIM, jobs=2)
            with contextlib.redirect_stdout(io.StringIO()):
                results, fig16b, todo = lea.run_all(args, scratch, ["leaftl_prxy"], [0], True,
                                                    4 * MIB)
            self.assertEqual([r["gamma"] for r in results], [0])
            self.assertEqual(sorted(todo["runs"]), [
                "leaftl_prxy_dftl_table", "leaftl_prxy_fig16b_dftl", "leaftl_prxy_fig16b_sftl",
                "leaftl_prxy_g0", "leaftl_prxy_sftl_table"])
            self.assertEqual(todo["reused"], 0)
            found = {r["scheme"]: r for r in fig16b}
            # LeaFTL's table: 150,000 B + 16: under 200,000, so its run stops, and is reported.
            self.assertTrue(found["leaftl"]["failed"])
            self.assertEqual(found["leaftl"]["map_budget"], 150_016)
            self.assertIn("(ftl.map_budget)", found["leaftl"]["error"])
            self.assertTrue(Path(found["leaftl"]["log"]).exists())
            # DFTL's table (200,000 mappings at 29 B) is capped at 80 % of 4 MiB.
            self.assertTrue(found["dftl"]["capped"])
            self.assertEqual(found["dftl"]["map_budget"], int(0.8 * 4 * MIB))
            self.assertEqual(found["dftl"]["cache_pages"], 204)
            self.assertAlmostEqual(found["dftl"]["latency_us"], 1000 * 1000 / 1204)
            self.assertFalse(found["sftl"].get("failed"))
            scenario = json.loads((scratch / "runs" / "leaftl_prxy_fig16b_dftl" /
                                   "scenario.yaml").read_text())
            self.assertEqual(scenario["ftl"]["map_budget"], f"{int(0.8 * 4 * MIB)}B")
            self.assertEqual(scenario["ftl"]["write_buffer"]["pages"], 204)
            # Again with --resume: every finished run is kept and counted.
            args.resume = True
            with contextlib.redirect_stdout(io.StringIO()):
                _, again, todo = lea.run_all(args, scratch, ["leaftl_prxy"], [0], True, 4 * MIB)
            self.assertEqual(todo["reused"], 5)
            self.assertEqual(todo["runs"]["leaftl_prxy_g0"], 1.5)
            self.assertTrue({r["scheme"]: r for r in again}["leaftl"]["failed"])

    def test_real_traces_run_after_the_profiles_and_a_failure_is_a_point(self):
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            # ssdsim fails on the SSDsim example's trace alone.
            program = FAKE_SSDSIM.replace(
                "pages = ftl[", "if 'ssdsim-example' in json.dumps(s['workload']):\n"
                "    print('ftl: trace broke'); sys.exit(3)\npages = ftl[")
            args = fake_run_args(scratch, program, jobs=1)
            args.real_traces = True
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                results, fig16b, todo = lea.run_all(args, scratch, ["leaftl_prxy"], [0, 16],
                                                    False, 4 * MIB)
            self.assertEqual([(r["profile"], r["gamma"]) for r in results],
                             [("leaftl_prxy", 0), ("leaftl_prxy", 16)])
            self.assertEqual(fig16b, [])
            self.assertEqual(sorted(todo["runs"]), ["leaftl_prxy_g0", "leaftl_prxy_g16",
                                                    "tpcc_g0", "tpcc_g16"])
            found = {(r["trace"], r["gamma"]): r for r in todo["traces"]}
            self.assertEqual(sorted(found), [("ssdsim", 0), ("ssdsim", 16), ("tpcc", 0),
                                             ("tpcc", 16)])
            tpcc = found[("tpcc", 16)]
            self.assertFalse(tpcc.get("failed"))
            self.assertIsNone(tpcc["after_warmup"])
            self.assertEqual(tpcc["end"]["bytes_paper"], 1000)
            # A fake run takes well under a tenth of a second: its time rounds to 0.0.
            self.assertGreaterEqual(tpcc["wall_seconds"], 0)
            ssdsim = found[("ssdsim", 0)]
            self.assertTrue(ssdsim["failed"])
            self.assertEqual(ssdsim["error"], "ftl: trace broke")
            self.assertTrue(Path(ssdsim["log"]).exists())
            self.assertIn("ssdsim_g0: FAILED: ftl: trace broke (5/6)", printed.getvalue())
            scenario = json.loads((scratch / "runs" / "tpcc_g16" / "scenario.yaml").read_text())
            self.assertEqual([p["name"] for p in scenario["workload"]["phases"]], ["measure"])
            self.assertEqual(scenario["ftl"]["leaftl"]["gamma"], 16)
            # Without real_traces (an older caller's arguments): no trace run.
            del args.real_traces
            with contextlib.redirect_stdout(io.StringIO()):
                _, _, todo = lea.run_all(args, scratch, ["leaftl_prxy"], [0], False, 4 * MIB)
            self.assertEqual(todo["traces"], [])
            self.assertEqual(sorted(todo["runs"]), ["leaftl_prxy_g0"])

    def test_a_failed_leaftl_run_stops_everything(self):
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            args = fake_run_args(scratch, "import sys\nsys.exit(1)\n", jobs=1)
            with self.assertRaisesRegex(RuntimeError, "leaftl_prxy_g0: ssdsim failed"):
                lea.run_all(args, scratch, ["leaftl_prxy"], [0], False, 4 * MIB)


if __name__ == "__main__":
    unittest.main()
