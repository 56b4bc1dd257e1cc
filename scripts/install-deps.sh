#!/usr/bin/env bash
# Installs the Debian 12 packages batfill needs, only those missing (a no-op when all are there).
set -euo pipefail
packages=(cmake g++ make pkg-config libsimgrid-dev rapidjson-dev libboost-dev
          libboost-program-options-dev libboost-iostreams-dev zlib1g-dev libzmq3-dev cppzmq-dev
          libgtest-dev libgmock-dev libbenchmark-dev
          python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pandas  # python/
          python3-zmq                     # tests/edc/fcfs_process_edc.py, a Python process EDC
          snakemake python3-matplotlib)   # the last line: experiments/pipeline/ (Snakefile, figures)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
