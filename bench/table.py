#!/usr/bin/env python3
"""Reads bench JSON lines on stdin and prints a readable table (standard library only)."""
import json
import sys

rows = [json.loads(line) for line in sys.stdin if line.startswith("{")]
if rows:
    head = ("case", "size", "backend", "baseline", "ember", "baseline", "ratio")
    print()
    print("%-28s %-8s %-10s %-22s %12s %12s %7s" % head)
    for r in rows:
        print("%-28s %-8s %-10s %-22s %12.3e %12.3e %7.2f" % (
            r["case"], r["size"], r["backend"], r["baseline"], r["ember_s"], r["baseline_s"], r["ratio"]))
