#!/usr/bin/env python3
"""Runs a command several times and checks that every run exits 0 within a time limit and
prints exactly the expected bytes on stdout; for nondeterministic failures (races between
MLIR's pass threads).

    repeat-compare.py RUNS EXPECTED_FILE [--timeout SECS] -- COMMAND ARGS...

Prints one line per bad run (crash by signal, exit status, time-out, differing output) and a
summary; exits 1 if any run was bad.
"""

import subprocess
import sys


def main(argv):
    if "--" not in argv:
        sys.exit("usage: repeat-compare.py RUNS EXPECTED_FILE [--timeout SECS] -- COMMAND ARGS...")
    sep = argv.index("--")
    opts, command = argv[:sep], argv[sep + 1:]
    timeout = 120.0
    if "--timeout" in opts:
        i = opts.index("--timeout")
        timeout = float(opts[i + 1])
        del opts[i:i + 2]
    runs, expected_path = int(opts[0]), opts[1]
    with open(expected_path, "rb") as f:
        expected = f.read()
    crashed = failed = hung = differed = 0
    for run in range(1, runs + 1):
        try:
            p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            hung += 1
            print(f"run {run}: no exit within {timeout:g} s")
            continue
        err = p.stderr.decode(errors="replace").strip().splitlines()[:5]
        if p.returncode < 0:
            crashed += 1
            print(f"run {run}: killed by signal {-p.returncode}", *err, sep="\n    ")
        elif p.returncode != 0:
            failed += 1
            print(f"run {run}: exit status {p.returncode}", *err, sep="\n    ")
        elif p.stdout != expected:
            differed += 1
            print(f"run {run}: output differs from {expected_path}")
    bad = crashed + failed + hung + differed
    print(f"{runs} runs: {runs - bad} identical, {crashed} crashed, {failed} failed, {hung} hung, "
          f"{differed} differed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
