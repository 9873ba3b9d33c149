#!/usr/bin/env bash
# A CPython interpreter of another version than the machine's, for testing the abi3 wheel on the
# oldest (3.9) and the newest (3.13) Python it is for. The build machine has Python 3.11 only and
# no internet beyond the package registries, so the interpreter is built from Debian's source
# tarball of it (deb.debian.org, checked against the SHA-256 of Debian's `Sources` index).
#
#     python/tools/cpython.sh 3.9|3.13
#
# Prints the interpreter's path on its last line. Builds once into
# ${DATAFUSION_TENSOR_CACHE:-$HOME/.cache/datafusion-tensor}/cpython/<version> and reuses it.
# Exit status 3: the tarball could not be downloaded (the caller says so and goes on); any
# other failure is a failure.
set -euo pipefail

version="${1:?usage: cpython.sh 3.9|3.13}"
case "$version" in
    # bullseye's Python 3.9 (the abi3 wheel's floor: pyo3's abi3-py39)
    3.9) release=3.9.2
         sha256=3c2034c54f811448f516668dce09d24008a0716c3a794dd8639b5388cbde247d ;;
    # trixie's Python 3.13
    3.13) release=3.13.5
          sha256=93e583f243454e6e9e4588ca2c2662206ad961659863277afcdb96801647d640 ;;
    *) echo "cpython.sh: no source pinned for Python $version (3.9, 3.13)" >&2; exit 2 ;;
esac

cache="${DATAFUSION_TENSOR_CACHE:-$HOME/.cache/datafusion-tensor}/cpython"
prefix="$cache/$release"
python="$prefix/bin/python$version"
if [ -x "$python" ] && "$python" -c 'import sys' 2>/dev/null; then
    echo "$python"
    exit 0
fi

mkdir -p "$cache"
tarball="$cache/python${version}_${release}.orig.tar.xz"
if ! [ -f "$tarball" ] || ! echo "$sha256  $tarball" | sha256sum --check --quiet 2>/dev/null; then
    url="http://deb.debian.org/debian/pool/main/p/python${version}/python${version}_${release}.orig.tar.xz"
    if ! curl --fail --silent --show-error --location --retry 3 -o "$tarball.part" "$url"; then
        echo "cpython.sh: could not download $url" >&2
        rm -f "$tarball.part"
        exit 3
    fi
    echo "$sha256  $tarball.part" | sha256sum --check --quiet
    mv "$tarball.part" "$tarball"
fi

build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
tar -xf "$tarball" -C "$build"
cd "$build/Python-$release"
# No profile-guided optimisation, no test suite: the interpreter only runs pytest over queries
# whose time is spent in the Rust extension. Its bundled pip (ensurepip) installs the test
# requirements for its own version (environment markers included).
./configure --prefix="$prefix" >"$build/configure.log" 2>&1 \
    || { tail -40 "$build/configure.log" >&2; exit 1; }
make -j"$(nproc)" >"$build/make.log" 2>&1 || { tail -40 "$build/make.log" >&2; exit 1; }
make altinstall >"$build/install.log" 2>&1 || { tail -40 "$build/install.log" >&2; exit 1; }
"$python" -c 'import sys; print(sys.version)' >&2
echo "$python"
