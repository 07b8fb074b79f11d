#!/bin/sh
# Install what hbatest builds, tests and benchmarks with (Debian 12 / Ubuntu).
# Run as root (or with sudo). The README and .ci/run both use it.
set -eu
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	build-essential pkg-config ca-certificates perl util-linux \
	liblua5.4-dev libsqlite3-dev sqlite3 liburing-dev libaio-dev libblkid-dev \
	libpci-dev libcsv-dev gnuplot-nox fio >/dev/null
echo "hbatest: build dependencies installed"
