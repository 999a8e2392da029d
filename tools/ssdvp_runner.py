#!/usr/bin/python3
"""Runs ssdsim jobs in parallel, on the local cores or on a Dask cluster, resumably.

    results = run_jobs("build/tb/ssdsim", [Job("0_a", Path("out/0_a"), scenario_text)], 4)

Each job is a directory that receives its scenario (scenario.yaml) and ssdsim's outputs. A
job is finished, and kept on a rerun, when its stats.json exists, the scenario.yaml there is
the text it would run now, and there is no ssdsim.log: ssdsim's output is kept only when a run
fails. A failed job is reported with the end of its log and the rest go on. Progress goes to
stderr: one line redrawn on a terminal, a line per finished job otherwise.

Standard library only; `scheduler` needs Debian's python3-distributed.
"""

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence, TextIO

SCENARIO = "scenario.yaml"
STATS = "stats.json"
LOG = "ssdsim.log"
TAIL_LINES = 20
_POLL_SECONDS = 0.2


@dataclass
class Job:
    """One ssdsim run: its name, its directory, the scenario text and extra arguments."""

    name: str
    directory: Path
    scenario: str
    arguments: list[str] = field(default_factory=list)


@dataclass
class Result:
    """How a job ended: "done", "kept" (finished by an earlier run) or "failed"."""

    job: Job
    status: str
    seconds: float | None = None  # the run's wall time (a kept run's from its stats.json)
    error: str | None = None  # why it failed
    log: Path | None = None  # its full log
    tail: str = ""  # the log's last lines


def finished(job: Job) -> bool:
    """Whether the job's directory holds a successful run of the same scenario."""
    try:
        recorded = (job.directory / SCENARIO).read_text(encoding="utf-8")
    except OSError:
        return False
    return (recorded == job.scenario and (job.directory / STATS).exists()
            and not (job.directory / LOG).exists())


def execute(ssdsim: str, directory: str, arguments: list[str]) -> tuple[int, float, str]:
    """Runs ssdsim on directory/scenario.yaml into directory, here or on a Dask worker; keeps
    its output in directory/ssdsim.log when it fails. Answers the exit status, the wall
    seconds and the last lines of the output."""
    started = time.time()
    command = [ssdsim, str(Path(directory) / SCENARIO), *arguments, "--out", directory]
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, errors="replace")
        status, output = run.returncode, run.stdout
    except OSError as error:  # no ssdsim there: a worker that does not share the filesystem
        status, output = 127, f"ssdvp: cannot run {ssdsim} on this machine: {error}\n"
    if status != 0:
        Path(directory, LOG).write_text(output, encoding="utf-8")
    return status, time.time() - started, "\n".join(output.splitlines()[-TAIL_LINES:])


def _prepare(job: Job) -> None:
    job.directory.mkdir(parents=True, exist_ok=True)
    (job.directory / SCENARIO).write_text(job.scenario, encoding="utf-8")
    # A stale stats.json would make an interrupted rerun look finished.
    for stale in (STATS, LOG):
        (job.directory / stale).unlink(missing_ok=True)


def _kept_seconds(job: Job) -> float | None:
    try:
        return json.loads((job.directory / STATS).read_text())["simulator"]["wall_seconds"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _failure(status: int) -> str:
    if status < 0:
        return f"ssdsim was killed by signal {-status}"
    return f"ssdsim exited with status {status}"


class _LocalPool:
    def __init__(self, jobs: int):
        self.slots = jobs
        self._executor = ThreadPoolExecutor(max_workers=jobs)

    def submit(self, *arguments: Any) -> Any:
        return self._executor.submit(execute, *arguments)

    def running(self, futures: Sequence[Any]) -> int:
        return sum(future.running() for future in futures)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


class _DaskPool:
    """The jobs as tasks of a Dask distributed cluster; each worker runs ssdsim itself, so it
    must see the same paths (ssdsim, the firmware, the output directory)."""

    def __init__(self, address: str):
        import cloudpickle
        from distributed import Client
        # Ship execute() by value: the workers need not have tools/ on their Python path.
        cloudpickle.register_pickle_by_value(sys.modules[__name__])
        try:
            self._client = Client(address, timeout="10s")
        except (OSError, ValueError) as error:
            raise ConnectionError(f"--scheduler: cannot reach the Dask scheduler at "
                                  f"'{address}': {error}") from error
        self.slots = max(1, sum(self._client.nthreads().values()))

    def submit(self, *arguments: Any) -> Any:
        return self._client.submit(execute, *arguments, pure=False)

    def running(self, futures: Sequence[Any]) -> int:
        return sum(len(keys) for keys in self._client.processing().values())

    def close(self) -> None:
        self._client.close()


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


class Progress:
    """Points done, running, failed and the time left, on stderr: one line redrawn with \\r on
    a terminal, else a line per finished point."""

    def __init__(self, total: int, kept: int, stream: TextIO):
        self.total, self.kept, self.stream = total, kept, stream
        self.done = self.failed = self.running = 0
        self.tty = stream.isatty()
        self._started = time.monotonic()
        self._shown = ""

    def line(self) -> str:
        ran = self.done + self.failed
        left = self.total - self.kept - ran
        if left == 0:
            eta = "finished"
        elif ran == 0:
            eta = "time left unknown"
        else:
            eta = f"about {_duration((time.monotonic() - self._started) / ran * left)} left"
        kept = f", {self.kept} kept" if self.kept else ""
        return (f"{self.done + self.kept + self.failed}/{self.total} points: {self.done} done"
                f"{kept}, {self.failed} failed, {self.running} running; {eta}")

    def redraw(self) -> None:
        if self.tty:
            text = self.line()
            self.stream.write("\r" + text.ljust(len(self._shown)))
            self.stream.flush()
            self._shown = text

    def report(self, result: Result) -> None:
        self.done += result.status == "done"
        self.failed += result.status == "failed"
        if self.tty:
            self.stream.write("\r" + " " * len(self._shown) + "\r")
            self._shown = ""
        if result.status == "failed":
            tail = "".join(f"    {line}\n" for line in result.tail.splitlines())
            self.stream.write(f"ssdvp: {result.job.name or result.job.directory} FAILED: "
                              f"{result.error}; full log: {result.log}\n{tail}")
        elif not self.tty:
            self.stream.write(f"ssdvp: {result.job.name or result.job.directory}: done in "
                              f"{result.seconds:.1f} s\n")
        if not self.tty:
            self.stream.write(f"ssdvp: {self.line()}\n")
        self.stream.flush()
        self.redraw()

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\r" + self.line().ljust(len(self._shown)) + "\n")
        elif self.done + self.failed == 0:  # each run's report ended with the line already
            self.stream.write(f"ssdvp: {self.line()}\n")
        self.stream.flush()


def run_jobs(ssdsim: str | Path, jobs: Sequence[Job], parallel: int = 1,
             scheduler: str | None = None, resume: bool = True,
             stream: TextIO | None = None) -> list[Result]:
    """Runs the jobs `parallel` at a time on this machine, or on the Dask cluster whose
    scheduler is at `scheduler` (tcp://host:port); with `resume`, finished jobs are kept.
    Progress goes to `stream`, by default the standard error of the moment of the call (not of
    the import: a test harness may have replaced it since). Answers a Result per job, in the
    jobs' order. ConnectionError when the scheduler cannot be reached."""
    results: dict[int, Result] = {}
    todo = []
    for index, job in enumerate(jobs):
        if resume and finished(job):
            results[index] = Result(job, "kept", _kept_seconds(job))
        else:
            todo.append(index)
    progress = Progress(len(jobs), len(results), stream or sys.stderr)
    if not todo:
        progress.finish()
        return [results[i] for i in range(len(jobs))]
    pool = _DaskPool(scheduler) if scheduler else _LocalPool(parallel)
    try:
        pending = {}
        for index in todo:
            _prepare(jobs[index])
            # Absolute paths: a Dask worker's working directory is its own.
            pending[pool.submit(str(Path(ssdsim).absolute()),
                                str(jobs[index].directory.absolute()),
                                jobs[index].arguments)] = index
        while pending:
            ended = [(pending.pop(f), f) for f in list(pending) if f.done()]
            progress.running = pool.running(list(pending)) if pending else 0
            for index, future in ended:
                results[index] = _result(jobs[index], future)
                progress.report(results[index])
            progress.redraw()
            time.sleep(_POLL_SECONDS if pending else 0)
    finally:
        pool.close()
    progress.finish()
    return [results[i] for i in range(len(jobs))]


def _result(job: Job, future: Any) -> Result:
    try:
        status, seconds, tail = future.result()
    except Exception as error:  # noqa: BLE001 (a task the cluster lost is one failed point)
        return Result(job, "failed", error=f"the task failed: {error!r}")
    if status == 0:
        return Result(job, "done", seconds)
    return Result(job, "failed", seconds, _failure(status), job.directory / LOG, tail)


def default_jobs() -> int:
    """The local cores this process may use."""
    return len(os.sched_getaffinity(0))
