"""What two builds' stats.json of one scenario disagree on, for the speed work's promise that
results stay bit-identical (scripts/compare-results, scripts/run-benches --compare).

The wall-clock 'simulator' section and the output directory are left out. A key only the new
build writes is an added output, not a changed result: it is listed apart. A key only the base
build writes is an output lost, and a difference.
"""


def comparable(stats):
    """stats.json without what differs from run to run by design: wall-clock figures and the
    output directory each side writes to."""
    stats = {key: value for key, value in stats.items() if key != "simulator"}
    config = dict(stats.get("config", {}))
    output = {key: value for key, value in config.get("output", {}).items() if key != "dir"}
    if "output" in config:
        config["output"] = output
        stats["config"] = config
    return stats


def compare(base, new, path=""):
    """(the first key path where base and new differ, or None; the key paths only new has)."""
    added = []

    def walk(a, b, where):
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b)):
                if key not in b:
                    return f"{where}.{key} only in base"
                if key not in a:
                    added.append(f"{where}.{key}")
                    continue
                found = walk(a[key], b[key], f"{where}.{key}")
                if found:
                    return found
            return None
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return f"{where}: {len(a)} vs {len(b)} entries"
            for index, (x, y) in enumerate(zip(a, b)):
                found = walk(x, y, f"{where}[{index}]")
                if found:
                    return found
            return None
        return None if a == b else f"{where}: {a!r} (base) vs {b!r} (new)"

    return walk(comparable(base), comparable(new), path), added
