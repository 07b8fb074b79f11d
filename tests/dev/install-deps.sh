#!/bin/sh
# Install what hbatest builds, tests and benchmarks with (Debian 12 / Ubuntu).
# Runs apt-get as root, through sudo when started by another user.
# The README and .ci/run both use it.
set -eu
if [ "$(id -u)" != 0 ]; then
	exec sudo sh "$0" "$@"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
	build-essential pkg-config ca-certificates perl util-linux \
	liblua5.4-dev libsqlite3-dev sqlite3 liburing-dev libaio-dev libblkid-dev uuid-dev \
	libpci-dev pci.ids libcsv-dev lua5.4 gnuplot-nox fio jq \
	smartmontools nvme-cli \
	python3 strace clang man-db zsh >/dev/null
# libFuzzer for the fuzz targets (make fuzz, tests/fuzz_smoke.t): Debian 12
# ships it apart from clang; elsewhere it comes with clang's own packages
if apt-cache show libclang-rt-dev >/dev/null 2>&1; then
	apt-get install -y -qq --no-install-recommends libclang-rt-dev >/dev/null
fi
echo "hbatest: build dependencies installed"
