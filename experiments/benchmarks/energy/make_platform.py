#!/usr/bin/python3
"""Writes Batsim's energy platform (energy_platform_homogeneous_no_net_128.xml, in
tests/batsim/data/energy) grown to N compute hosts: its master host and N copies of its host0,
with the same speeds, power properties and sleep pstates. For replays of traces larger than 128
machines with --energy.
Usage: make_platform.py N OUT.xml"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "tests/batsim/data/energy/energy_platform_homogeneous_no_net_128.xml"


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    text = SOURCE.read_text()
    host0 = re.search(r'<host id="host0".*?</host>', text, re.S)
    master = re.search(r'<host id="master_host".*?</host>', text, re.S)
    if host0 is None or master is None:
        sys.exit(f"{SOURCE}: no host0 or master_host element")
    hosts = [host0.group(0).replace('id="host0"', f'id="host{i}"', 1) for i in range(n)]
    body = "\n".join([master.group(0)] + hosts)
    with open(out, "w") as f:
        f.write("<?xml version='1.0'?>\n"
                '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
                '<platform version="4.1">\n<zone id="AS0" routing="Vivaldi">\n'
                f"{body}\n</zone>\n</platform>\n")


if __name__ == "__main__":
    main()
