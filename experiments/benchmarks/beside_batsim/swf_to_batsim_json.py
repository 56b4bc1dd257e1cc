#!/usr/bin/env python3
"""An SWF trace (plain or gzip) as a Batsim JSON workload of delay jobs, by batfill's SWF
conventions (docs/semantics.md#swf): runtime field 4, nodes field 8 (else 5), walltime field 9
(else the runtime). Records batfill would reject as unreplayable are left out, and so are
runtimes of 0, which Batsim refuses in a delay profile. The same conversion as the real-Batsim
integration tests (tests/batsim), so runs compare with theirs.

usage: swf_to_batsim_json.py TRACE.swf[.gz] MACHINES OUT.json
"""
import gzip
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    trace, machines, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    opener = gzip.open if trace.endswith(".gz") else open
    jobs, delays = [], set()
    with opener(trace, "rt") as lines:
        for line in lines:
            if not line.strip() or line.startswith(";"):
                continue
            fields = [float(f) for f in line.split()]
            if len(fields) < 18:
                continue
            runtime = int(fields[3])
            nodes = int(fields[7] if fields[7] > 0 else fields[4])
            walltime = int(fields[8] if fields[8] > 0 else fields[3])
            if runtime <= 0 or nodes <= 0 or walltime <= 0 or fields[1] < 0:
                continue
            delays.add(runtime)
            jobs.append(f'{{"id":"{int(fields[0])}","subtime":{int(fields[1])},"res":{nodes},'
                        f'"walltime":{walltime},"profile":"d{runtime}"}}')
    profiles = ",".join(f'"d{d}":{{"type":"delay","delay":{d}}}' for d in sorted(delays))
    with open(out, "w") as json:
        json.write(f'{{"nb_res":{machines},"jobs":[\n' + ",\n".join(jobs) +
                   f'],"profiles":{{{profiles}}}}}\n')


if __name__ == "__main__":
    main()
