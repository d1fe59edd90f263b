#!/usr/bin/env bash
# Makes sure the LAPACK and BLAS development libraries are installed (Debian/Ubuntu).
# As root it installs them with apt-get; otherwise it prints the exact command and stops.
set -euo pipefail

have_libs() {
    if command -v dpkg-query >/dev/null 2>&1; then
        dpkg-query -W -f='${Status}\n' liblapack-dev libblas-dev 2>/dev/null | grep -c "install ok installed" | grep -qx 2
    else
        ldconfig -p 2>/dev/null | grep -q 'liblapack\.so ' && ldconfig -p 2>/dev/null | grep -q 'libblas\.so '
    fi
}

if have_libs; then
    exit 0
fi

command="apt-get update && apt-get install -y liblapack-dev libblas-dev"
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing LAPACK and BLAS: $command" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq liblapack-dev libblas-dev >&2
else
    echo "LAPACK and BLAS are missing. Install them as root, then run this again:" >&2
    echo "  sudo sh -c '$command'" >&2
    exit 1
fi
