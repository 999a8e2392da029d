"""Tests of tools/reproduce_learnedftl.py: the scenarios, the figures of fake run directories,
the claims table, --resume and failed runs, with a stand-in for ssdsim."""

import argparse
import contextlib
import importlib.util
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import reproduce_learnedftl as lf  # noqa: E402  (needs the sys.path entry above)
import ssdvp_results  # noqa: E402

# Per scheme: read and write IOPS, CMT and model hits per 100 lookups, p99 (us), WAF, GC count.
FAKE = {"dftl": {"read_iops": 10000, "write_iops": 5000, "cmt": 2, "model": 0, "p99": 900,
                 "waf": 3.0, "gc": 120},
        "tpftl": {"read_iops": 11000, "write_iops": 6000, "cmt": 3, "model": 0, "p99": 800,
                  "waf": 2.5, "gc": 110},
        "learnedftl": {"read_iops": 15000, "write_iops": 7000, "cmt": 5, "model": 50,
                       "p99": 200, "waf": 2.0, "gc": 100},
        "ideal": {"read_iops": 16000, "write_iops": 7200, "cmt": 100, "model": 0, "p99": 180,
                  "waf": 1.8, "gc": 90}}

# A stand-in for ssdsim: reads the scenario (JSON), writes stats.json, latency.csv and
# timeseries.csv with every phase of the scenario, its figures following FAKE[scheme]; appends
# the run's name to calls.txt beside the runs/ directory; fails (exit 3, a firmware line) for
# the scheme named in FAIL.
FAKE_SSDSIM = r"""
import json, sys
from pathlib import Path
FAKE = %s
FAIL = %r
s = json.loads(Path(sys.argv[1]).read_text())
out = Path(sys.argv[3])
with open(out.parent.parent / "calls.txt", "a") as calls:
    calls.write(s["name"] + "\n")
scheme = s["firmware"]["scheme"]
print("ftl: 286720 LPNs, 660 KiB of SRAM used of 4070 KiB")
if scheme == FAIL:
    print("ftl: scheme " + scheme + ": the groups do not fit (ftl.op)")
    sys.exit(3)
f = FAKE[scheme]
host, ftl = [], []
for phase in s["workload"]["phases"]:
    first = (phase["streams"] or [{"read_fraction": 0.0}])[0]  # an idle phase has none
    reads = first.get("read_fraction", 1.0 if "profile" in first else 0.0) > 0
    n = phase.get("requests") or 1000
    lat = {"mean": f["p99"] * 500, "p99": f["p99"] * 1000, "p99.9": f["p99"] * 3000}
    op = {"commands": n, "iops": f["read_iops" if reads else "write_iops"], "latency_ns": lat}
    none = {"commands": 0, "iops": 0.0, "latency_ns": {"mean": 0, "p99": 0, "p99.9": 0}}
    host.append({"name": phase["name"], "commands": n, "duration_s": 1.0,
                 "iops": op["iops"], "ops": {"read": op if reads else none,
                                             "write": none if reads else op}})
    span = {"name": phase["name"], "map": {"lookups": 100 if reads else 0,
                                          "hits": f["cmt"] + f["model"] if reads else 0,
                                          "hit_ratio": f["cmt"] / 100 if reads else None,
                                          "table_bytes": 30000, "translatable_lpns": 2867},
            "host_read_pages": n if reads else 0, "host_write_pages": 0 if reads else n,
            "flash_reads": {"host": n // 2 if reads else 0,
                            "translation_host": n // 4 if reads else 0},
            "flash_reads_per_host_read": 0.75 if reads else None,
            "gc": {"invocations": 0 if reads else f["gc"], "pages_moved": 7,
                   "ordered_sets": 0 if reads else 10, "ordered_scan_cycles": 8000,
                   "ordered_set_cycles": 1000000},
            "waf": None if reads else f["waf"], "tp_reads": 5, "tp_writes": 6,
            "firmware": {"cycles_per_command": 9000.0, "awake_cycles_per_command": 5000.0}}
    if scheme == "learnedftl":
        span["learnedftl"] = {"model_hits": f["model"] if reads else 0, "cmt_hits": 99,
                              "train_cycles": 12000, "trainings": 80, "model_bytes": 64400,
                              "filter_errors": 0}
    ftl.append(span)
run = dict(ftl[-1], name=None)
out.mkdir(parents=True, exist_ok=True)
stats = {"outcome": {"outcome": "workload_done", "message": "done"},
         "config": {"cpu": {"clock": "800MHz"}, "ftl": {"map_budget": s["ftl"]["map_budget"]}},
         "simulator": {"wall_seconds": 2.5, "simulated_seconds": 1.0},
         "host": {"phases": host}, "ftl": {"phases": ftl, "run": run}}
(out / "stats.json").write_text(json.dumps(stats))
(out / "latency.csv").write_text("phase,op,lower_ns,upper_ns,count\n")
(out / "timeseries.csv").write_text("phase\n")
"""


def fake_ssdsim(scratch, fail=None):
    ssdsim = scratch / "ssdsim"
    ssdsim.write_text(f"#!{sys.executable}\n" + FAKE_SSDSIM % (json.dumps(FAKE), fail))
    ssdsim.chmod(0o755)
    return ssdsim


def run_args(ssdsim, resume=False, jobs=2):
    return argparse.Namespace(ssdsim=str(ssdsim), jobs=jobs, resume=resume)


SETTINGS = lf.settings_of(requests=3000, trace_requests=2000,
                          traces=["websearch1", "websearch2", "websearch3", "systor17"],
                          write_multiple=0.5)


def run_fake(scratch, schemes=tuple(lf.SCHEMES), fail=None, resume=False, settings=SETTINGS):
    ssdsim = fake_ssdsim(scratch, fail)
    todo = lf.points(list(schemes), settings)
    with contextlib.redirect_stdout(io.StringIO()):
        return lf.run_all(run_args(ssdsim, resume), scratch, todo)


class ScenarioTest(unittest.TestCase):
    def test_the_device_is_the_decided_one(self):
        s = lf.points(["learnedftl"], SETTINGS)[0]["scenario"]
        nand = s["nand"]
        self.assertEqual((nand["channels"], nand["ways"], nand["dies"], nand["planes"]),
                         (8, 8, 1, 1))
        self.assertEqual((nand["pages"], nand["blocks"], nand["page_size"], nand["cell"]),
                         (128, 40, "4KiB", "slc"))
        self.assertEqual((nand["t_read"], nand["t_prog"], nand["t_erase"]),
                         ({"lsb": "40us"}, "200us", "2ms"))
        self.assertEqual(nand["endurance"], 1000000)
        self.assertEqual(s["ftl"]["op"], 0.125)
        self.assertEqual(s["sram"]["size"], "4MiB")
        self.assertEqual(s["ftl"]["write_buffer"], {"pages": 64, "location": "sram"})
        self.assertEqual(s["host"], {"oracle": False, "stats_interval": "0s"})
        # A stripe of 64 blocks holds 8192 pages = one group of 8 TPs x 1024 entries; 35 groups.
        self.assertEqual(lf.stripe_pages(), 8192)
        self.assertEqual(lf.GTD_GROUP_TPS * lf.ENTRIES_PER_TP, lf.stripe_pages())
        self.assertEqual(lf.exported_lpns(), 286720)
        self.assertEqual(lf.groups(), 35)
        self.assertLess(lf.groups() + 2, nand["blocks"])

    def test_learnedftl_gets_group_allocation_and_the_others_do_not(self):
        by = {p["scheme"]: p["scenario"] for p in lf.points(lf.SCHEMES, SETTINGS)
              if p["kind"] == "read"}
        ftl = by["learnedftl"]["ftl"]
        # Every scheme's GC batches a program per chip and runs until 3 stripes are free.
        self.assertEqual(ftl["gc"], {"victim": "gtd_group", "batch_programs": 64,
                                     "background_free": 3})
        self.assertEqual(ftl["fsp"], {"policy": "gtd_group"})
        self.assertEqual(ftl["gtd_group"], {"tps": 8, "spare_stripes": 4, "lone_stripe": "empty"})
        self.assertEqual(ftl["learnedftl"], {"pieces": 8})
        for scheme in ("dftl", "tpftl", "ideal"):
            self.assertEqual(by[scheme]["firmware"]["scheme"], scheme)
            self.assertEqual(by[scheme]["ftl"]["gc"], {"batch_programs": 64,
                                                       "background_free": 3}, scheme)
            for key in ("fsp", "gtd_group", "learnedftl"):
                self.assertNotIn(key, by[scheme]["ftl"], scheme)
            # Only the scheme, its keys and the budget differ from LearnedFTL's scenario.
            same = {k: v for k, v in by[scheme].items() if k not in ("name", "firmware", "ftl")}
            self.assertEqual(same, {k: v for k, v in by["learnedftl"].items()
                                    if k not in ("name", "firmware", "ftl")})

    def test_budgets_equal_for_the_demand_based_schemes_and_ideal_holds_its_table(self):
        budgets = {p["scheme"]: p["scenario"]["ftl"]["map_budget"]
                   for p in lf.points(lf.SCHEMES, SETTINGS)}
        self.assertEqual({budgets[s] for s in ("dftl", "tpftl", "learnedftl")}, {"96KiB"})
        ideal = int(budgets["ideal"].removesuffix("KiB")) * 1024
        self.assertGreaterEqual(ideal, 4 * lf.exported_lpns())
        self.assertLessEqual(ideal, 2 * 4 * lf.exported_lpns())
        # The budget holds LearnedFTL's models and a CMT of at least 0.1 % of the LPNs.
        self.assertGreater(96 * 1024, lf.MODEL_BYTES_MEASURED
                           + 0.001 * lf.exported_lpns() * lf.CMT_ENTRY_BYTES)

    def test_read_run_phases_and_write_runs(self):
        todo = lf.points(["dftl", "learnedftl"], SETTINGS)
        self.assertEqual([p["name"] for p in todo],
                         ["dftl_read", "learnedftl_read", "dftl_randwrite", "dftl_seqwrite",
                          "learnedftl_randwrite", "learnedftl_seqwrite"])
        phases = todo[0]["scenario"]["workload"]["phases"]
        self.assertEqual([p["name"] for p in phases],
                         ["warmup", "settle", "random_read", "sequential_read", "websearch1",
                          "websearch2", "websearch3", "systor17"])
        warm, settle, rand, seq = phases[:4]
        # An idle second after the warm-up: the reads meet no GC the warm-up left.
        self.assertEqual(settle, {"name": "settle", "duration": "1s", "streams": []})
        self.assertEqual(warm["capacity_multiple"], lf.WARMUP_MULTIPLE)
        self.assertEqual(lf.WARMUP_MULTIPLE, 3.0)
        custom = lf.points(["dftl"], lf.settings_of(3000, 2000, ["websearch1"], 0.5, False, 1.5))
        self.assertEqual(custom[0]["scenario"]["workload"]["phases"][0]["capacity_multiple"], 1.5)
        self.assertEqual(warm["streams"][0], {"pattern": "random", "read_fraction": 0.0,
                                              "size": "4KiB", "queue_depth": 64})
        self.assertEqual((rand["requests"], rand["streams"][0]["pattern"],
                          rand["streams"][0]["read_fraction"]), (3000, "random", 1.0))
        self.assertEqual((seq["requests"], seq["streams"][0]["pattern"]), (3000, "sequential"))
        trace = phases[7]
        self.assertEqual(trace["requests"], 2000)
        self.assertEqual(trace["streams"][0], {"name": "systor17",
                                               "profile": "learnedftl_systor17",
                                               "footprint_scale": 0.125, "queue_depth": 64})
        # Every trace's footprint fits the exported capacity.
        block = lf.scale_block(SETTINGS)
        self.assertTrue(all(b < block["exported_bytes"]
                            for b in block["trace_footprint_bytes"].values()))
        self.assertEqual(block["trace_footprint_bytes"]["websearch1"], 512 * 2**20)
        rw = todo[2]["scenario"]["workload"]["phases"]
        self.assertEqual(rw, [{"name": "random_write", "capacity_multiple": 0.5,
                               "streams": [{"pattern": "random", "read_fraction": 0.0,
                                            "size": "4KiB", "queue_depth": 64}]}])
        sw = todo[3]["scenario"]["workload"]["phases"][0]
        self.assertEqual((sw["name"], sw["streams"][0]["pattern"]),
                         ("sequential_write", "sequential"))

    def test_lone_stripe_reaches_every_learnedftl_run(self):
        fits = lf.points(["learnedftl"], lf.settings_of(lone_stripe="fits"))
        self.assertEqual(len(fits), 3)
        self.assertEqual({p["scenario"]["ftl"]["gtd_group"]["lone_stripe"] for p in fits}, {"fits"})
        with self.assertRaises(SystemExit):
            lf.main(["--lone-stripe", "some"])

    def test_quick_is_small(self):
        quick = lf.settings_of(quick=True)
        phases = lf.points(["tpftl"], quick)[0]["scenario"]["workload"]["phases"]
        self.assertEqual(phases[0]["capacity_multiple"], 0.1)
        self.assertEqual([p["name"] for p in phases[4:]], ["websearch1", "systor17"])
        self.assertTrue(all(p["requests"] == 5000 for p in phases[2:]))
        self.assertEqual(lf.points(["tpftl"], quick)[1]["scenario"]["workload"]["phases"][0]
                         ["capacity_multiple"], 0.05)

    def test_unknown_names_are_refused(self):
        parser = argparse.ArgumentParser()
        self.assertEqual(lf.parse_list("TPFTL,ideal", lf.SCHEMES, "scheme", parser),
                         ["tpftl", "ideal"])
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            lf.parse_list("sftl", lf.SCHEMES, "scheme", parser)
        self.assertIn("unknown scheme 'sftl'; allowed: dftl, tpftl, learnedftl, ideal",
                      err.getvalue())


class FiguresTest(unittest.TestCase):
    def test_figures_of_fake_runs(self):
        with tempfile.TemporaryDirectory() as scratch:
            records, done = run_fake(Path(scratch))
        self.assertEqual(len(records), 12)
        self.assertEqual(done["reused"], 0)
        t = lf.index(records)
        learned = t[("learnedftl", "read")]["phases"]["random_read"]
        # LearnedFTL: 55 hits of 100 lookups, 50 of them the model's: CMT 5 %, model 50 %.
        self.assertAlmostEqual(learned["model_hit_ratio"], 0.50)
        self.assertAlmostEqual(learned["cmt_hit_ratio"], 0.05)
        self.assertAlmostEqual(learned["combined_hit_ratio"], 0.55)
        self.assertEqual(learned["cmt_hits_raw"], 99)  # kept, not used
        self.assertEqual(learned["read_iops"], 15000)
        self.assertAlmostEqual(learned["read_p99_us"], 200)
        self.assertAlmostEqual(learned["read_p999_us"], 600)
        self.assertAlmostEqual(learned["data_read_share"], 0.5)
        self.assertAlmostEqual(learned["translation_reads_per_host_read"], 0.25)
        self.assertEqual(learned["cycles_per_command"], 5000.0)  # awake: sleep left out
        dftl = t[("dftl", "read")]["phases"]["random_read"]
        self.assertAlmostEqual(dftl["cmt_hit_ratio"], 0.02)
        self.assertIsNone(dftl["model_hit_ratio"])
        write = t[("tpftl", "randwrite")]["phases"]["random_write"]
        self.assertEqual((write["write_iops"], write["waf"], write["gc_count"]), (6000, 2.5, 110))
        self.assertIsNone(write["read_p99_us"])
        # Figure 16: (12,000 + 8,000) / 1,000,000 cycles; per group of 10: 1.5 us training.
        o = t[("learnedftl", "randwrite")]["gc_overhead"]["random_write"]
        self.assertAlmostEqual(o["share"], 0.02)
        self.assertAlmostEqual(o["train_share"], 0.012)
        self.assertAlmostEqual(o["train_us_per_set"], 1.5)
        self.assertAlmostEqual(o["set_ms"], 0.125)
        self.assertNotIn("gc_overhead", t[("dftl", "randwrite")])
        self.assertEqual(t[("learnedftl", "read")]["model_bytes"], 64400)
        self.assertEqual(t[("dftl", "read")]["map_budget"], "96KiB")

    def test_a_run_that_did_not_finish_is_refused(self):
        stats = {"outcome": {"outcome": "fault", "message": "m"}, "host": {"phases": []}}
        run = ssdvp_results.Run(Path("x"), stats, [], [], [], [], [])
        with self.assertRaisesRegex(RuntimeError, "outcome fault: m"):
            lf.figures_of(run, {"scheme": "dftl", "kind": "read", "name": "x"})

    def test_gc_overhead_without_collections_reads_none(self):
        o = lf.gc_overhead({"gc": {"ordered_sets": 0, "ordered_scan_cycles": 0,
                                   "ordered_set_cycles": 0},
                            "learnedftl": {"train_cycles": 0}})
        self.assertIsNone(o["share"])
        self.assertIsNone(o["train_us_per_set"])


class ClaimsTest(unittest.TestCase):
    def claims(self, records):
        return {c: (p, o, a) for c, p, o, a in lf.claims(records, SETTINGS["traces"])}

    def test_claims_are_computed_from_the_runs(self):
        with tempfile.TemporaryDirectory() as scratch:
            records, _ = run_fake(Path(scratch))
        c = self.claims(records)
        # 15,000 / 10,000 and / 11,000 IOPS; 15,000 / 16,000 of the ideal's.
        self.assertEqual(c["Random reads: IOPS, LearnedFTL / DFTL"], ("1.5x", "1.50x", "yes"))
        self.assertEqual(c["Random reads: IOPS, LearnedFTL / TPFTL"], ("1.4x", "1.36x", "yes"))
        self.assertEqual(c["Random reads: IOPS, LearnedFTL / ideal"],
                         ("89.2 %", "93.8 %", "yes"))
        self.assertEqual(c["Sequential reads: IOPS, LearnedFTL / DFTL"][1:],
                         ("1.50x", "direction"))
        self.assertEqual(c["Random reads: LearnedFTL's model hit ratio"],
                         ("55.5 %", "50.0 %", "yes"))
        self.assertEqual(c["Random reads: CMT hit ratio of DFTL, TPFTL"][1:],
                         ("2.0 % / 3.0 %", "yes"))
        self.assertEqual(c["Sequential reads: TPFTL's CMT hit ratio"], ("80.0 %", "3.0 %", "no"))
        self.assertEqual(c["Random writes: IOPS, LearnedFTL / DFTL"], ("1.4x", "1.40x", "yes"))
        self.assertEqual(c["Random writes: WAF (LearnedFTL / DFTL / TPFTL)"][1:],
                         ("LearnedFTL 2.00 / DFTL 3.00 / TPFTL 2.50", "yes"))
        self.assertEqual(c["Random writes: GC count, not higher for LearnedFTL (LearnedFTL / "
                           "DFTL / TPFTL)"][1:], ("LearnedFTL 100 / DFTL 120 / TPFTL 110", "yes"))
        self.assertEqual(c["Sequential writes: IOPS, LearnedFTL / DFTL, / TPFTL"][1:],
                         ("1.40x / 1.17x", "no"))
        # p99 800 us vs 200 us on every trace: 4x; p99.9 likewise; 200 / 180 of the ideal's.
        p99 = c["Traces: p99 read latency, TPFTL / LearnedFTL, mean over the traces"]
        self.assertEqual(p99[1], "4.00x (websearch1 4.00x, websearch2 4.00x, websearch3 "
                                 "4.00x, systor17 4.00x)")
        self.assertEqual(p99[2], "yes")
        self.assertEqual(c["Traces: p99.9 read latency, TPFTL / LearnedFTL, max"][1:],
                         ("4.00x", "direction"))
        self.assertEqual(c["Traces: p99 read latency, LearnedFTL / ideal, WebSearch2 and 3"][1:],
                         ("websearch2 1.11x, websearch3 1.11x", "yes"))
        gc = c["GC: training + sorting, share of the GC time (max over LearnedFTL's runs)"]
        self.assertEqual(gc[1], "2.0 % (read 2.0 %, randwrite 2.0 %, seqwrite 2.0 %)")
        self.assertEqual(gc[2], "yes")

    def test_claims_say_no_where_ours_disagree(self):
        with tempfile.TemporaryDirectory() as scratch:
            records, _ = run_fake(Path(scratch), schemes=["dftl", "tpftl", "learnedftl"])
        t = lf.index(records)
        write = t[("learnedftl", "randwrite")]["phases"]["random_write"]
        write.update({"gc_count": 111, "waf": 2.6})
        t[("learnedftl", "read")]["phases"]["random_read"]["model_hit_ratio"] = 0.2
        t[("learnedftl", "randwrite")]["gc_overhead"]["run"]["share"] = 0.2
        c = self.claims(records)
        gc = c["Random writes: GC count, not higher for LearnedFTL (LearnedFTL / DFTL / TPFTL)"]
        self.assertEqual(gc[1:], ("LearnedFTL 111 / DFTL 120 / TPFTL 110", "no"))
        self.assertEqual(c["Random writes: WAF (LearnedFTL / DFTL / TPFTL)"][2], "no")
        self.assertEqual(c["Random reads: LearnedFTL's model hit ratio"][1:], ("20.0 %", "no"))
        self.assertEqual(c["GC: training + sorting, share of the GC time (max over "
                           "LearnedFTL's runs)"][2], "no")
        # Without the ideal's runs, its claims are n/a, and the rest stand.
        self.assertEqual(c["Random reads: IOPS, LearnedFTL / ideal"][1:], ("n/a", "n/a"))
        self.assertEqual(c["Traces: p99 read latency, LearnedFTL / ideal, WebSearch2 and 3"][1:],
                         ("websearch2 n/a, websearch3 n/a", "n/a"))

    def test_no_gc_at_all_is_no_agreement(self):
        with tempfile.TemporaryDirectory() as scratch:
            records, _ = run_fake(Path(scratch), schemes=["dftl", "tpftl", "learnedftl"])
        for r in records:
            if r["kind"] == "seqwrite":
                r["phases"]["sequential_write"]["gc_count"] = 0
        c = self.claims(records)
        self.assertEqual(c["Sequential writes: GC count, not higher for LearnedFTL (LearnedFTL / "
                           "DFTL / TPFTL)"][1:],
                         ("LearnedFTL 0 / DFTL 0 / TPFTL 0 (no GC in these runs)", "n/a"))
        self.assertEqual(c["Random writes: GC count, not higher for LearnedFTL (LearnedFTL / "
                           "DFTL / TPFTL)"][2], "yes")

    def test_claims_of_nothing_read_n_a(self):
        for _, paper, ours, agrees in lf.claims([], SETTINGS["traces"]):
            self.assertTrue(paper)
            self.assertEqual(agrees, "n/a", ours)

    def test_agreement_rules(self):
        self.assertEqual(lf.agree_speedup(1.3, 1.5), "yes")
        self.assertEqual(lf.agree_speedup(1.1, 1.5), "direction")
        self.assertEqual(lf.agree_speedup(0.9, 1.5), "no")
        self.assertEqual(lf.agree_speedup(None, 1.5), "n/a")
        self.assertEqual(lf.agree_share(0.60, 0.555), "yes")
        self.assertEqual(lf.agree_share(0.30, 0.555), "no")
        self.assertEqual(lf.agree_bool(False), "no")


class RunAllTest(unittest.TestCase):
    def test_resume_keeps_finished_runs(self):
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            run_fake(scratch, schemes=["dftl", "ideal"])
            calls = (scratch / "calls.txt").read_text().split()
            self.assertEqual(sorted(calls), ["dftl_randwrite", "dftl_read", "dftl_seqwrite",
                                             "ideal_randwrite", "ideal_read", "ideal_seqwrite"])
            records, done = run_fake(scratch, schemes=["dftl", "ideal"], resume=True)
            self.assertEqual((scratch / "calls.txt").read_text().split(), calls)
            self.assertEqual(done["reused"], 6)
            self.assertEqual(done["runs"]["dftl_read"], 2.5)  # the kept run's own time
            self.assertFalse(any(r.get("failed") for r in records))
            # A changed scenario is run again; without --resume everything is.
            changed = dict(SETTINGS, requests=4000)
            _, done = run_fake(scratch, schemes=["dftl", "ideal"], resume=True,
                               settings=changed)
            self.assertEqual(done["reused"], 4)
            self.assertEqual(len((scratch / "calls.txt").read_text().split()), 8)
            run_fake(scratch, schemes=["dftl"])
            self.assertEqual(len((scratch / "calls.txt").read_text().split()), 11)

    def test_a_failed_run_is_reported_with_its_log_and_the_rest_go_on(self):
        with tempfile.TemporaryDirectory() as scratch:
            scratch = Path(scratch)
            records, done = run_fake(scratch, fail="tpftl")
            failed = [r for r in records if r.get("failed")]
            self.assertEqual([r["name"] for r in failed],
                             ["tpftl_read", "tpftl_randwrite", "tpftl_seqwrite"])
            self.assertEqual(failed[0]["error"], "ftl: scheme tpftl: the groups do not fit "
                                                 "(ftl.op)")
            self.assertTrue(Path(failed[0]["log"]).is_file())
            self.assertEqual(len(done["runs"]), 9)
            c = {claim: (ours, agrees) for claim, _, ours, agrees
                 in lf.claims(records, SETTINGS["traces"])}
            self.assertEqual(c["Random reads: IOPS, LearnedFTL / TPFTL"], ("n/a", "n/a"))
            self.assertEqual(c["Random reads: IOPS, LearnedFTL / DFTL"], ("1.50x", "yes"))
            summary = {"scale": {}, "wall_seconds": 1, "runs_wall_seconds": 2, "jobs": 2,
                       "runs": 12, "reused_runs": 0, "results": records,
                       "claims": lf.claims(records, SETTINGS["traces"])}
            md = lf.markdown(summary)
            self.assertIn(f"- tpftl_read: ftl: scheme tpftl: the groups do not fit (ftl.op) "
                          f"(log: {failed[0]['log']})", md)
            self.assertIn("| tpftl_read | FAILED: ftl: scheme tpftl", md)
            # Every per-phase row, the failed ones too, has the header's cells.
            lines = md.splitlines()
            header = next(line for line in lines if line.startswith("| run | phase |"))
            rows = [line for line in lines if line.startswith(("| dftl_", "| tpftl_"))
                    and "96KiB" not in line]
            self.assertEqual(len(rows), 10 + 3)  # dftl: 8 phases + 2 writes; tpftl failed: 3
            for row in rows:
                self.assertEqual(row.count("|"), header.count("|"), row)
            row = next(line for line in rows if line.startswith("| dftl_read | random_read |"))
            self.assertEqual([c.strip() for c in row.strip("|").split("|")],
                             ["dftl_read", "random_read", "10,000", "2.0 %", "n/a", "0.750",
                              "0.250", "50.0 %", "900", "2,700", "0", "n/a", "6", "5,000"])

    def test_main_writes_the_summary_and_the_figures(self):
        # The figures need Debian's python3-matplotlib (scripts/bootstrap installs it); an
        # interpreter without it checks the rest, and says which figures it could not draw.
        plots = importlib.util.find_spec("matplotlib") is not None
        with tempfile.TemporaryDirectory() as scratch, \
                mock.patch.object(lf, "plot", lf.plot if plots else lambda summary, out: None):
            scratch = Path(scratch)
            ssdsim = fake_ssdsim(scratch)
            out = scratch / "out"
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(lf.main(["--ssdsim", str(ssdsim), "--out", str(out),
                                          "--quick", "--jobs", "2"]), 0)
            summary = json.loads((out / "summary.json").read_text())
            self.assertTrue(summary["quick"])
            self.assertEqual(summary["runs"], 12)
            self.assertEqual(summary["traces"], ["websearch1", "systor17"])
            self.assertEqual(summary["scale"]["groups"], 35)
            self.assertEqual(summary["scale"]["map_budget"], "96KiB")
            self.assertEqual(summary["scale"]["warmup_capacity_multiple"], 0.1)
            self.assertAlmostEqual(summary["trace_p99"]["systor17"]["tpftl_over_learnedftl"], 4.0)
            md = (out / "summary.md").read_text()
            self.assertIn("| claim | paper | ours | agrees |", md)
            self.assertIn("| Random reads: IOPS, LearnedFTL / DFTL | 1.5x | 1.50x | yes |", md)
            self.assertIn("--quick: a smoke run", md)
            self.assertIn("| learnedftl_read | 96KiB | 30,000 | 64,400 | 2,867 | 1.0 % |", md)
            for name in ("fig14a_iops.png", "fig14b_hit_ratios.png", "fig14c_waf.png",
                         "fig15_gc_count.png", "fig16_gc_overhead.png",
                         "fig20_tail_latency.png"):
                if plots:
                    self.assertGreater((out / name).stat().st_size, 1000, name)
                else:
                    print(f"no matplotlib in {sys.executable}: {name} not drawn",
                          file=sys.stderr)
            # --resume: all twelve kept, and summary.md says so.
            with contextlib.redirect_stdout(io.StringIO()):
                lf.main(["--ssdsim", str(ssdsim), "--out", str(out), "--quick", "--resume"])
            self.assertIn("12 of 12 runs were kept", (out / "summary.md").read_text())


if __name__ == "__main__":
    unittest.main()
