#!/usr/bin/env bash
# The Debian package (README "Debian package"): `cpack -G DEB` in the build folder makes a .deb;
# dpkg-deb shows the binary, the man page and both completions in it and runtime Depends computed
# from the libraries the binary links (dpkg-shlibdeps); unpacked into a scratch root (dpkg -x),
# the installed binary runs and triages a sample.
set -u
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
need_tools cpack dpkg-deb dpkg-shlibdeps
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpack -G DEB -B "$tmp/pkg" --config "$build/CPackConfig.cmake" >"$tmp/cpack.log" 2>&1
check "cpack -G DEB succeeds" test $? = 0 || cat "$tmp/cpack.log"
deb=$(ls "$tmp"/pkg/mcptriage_*.deb 2>/dev/null | head -1)
check "it makes mcptriage_VERSION_ARCH.deb ($deb)" test -f "$deb"
dpkg-deb -c "$deb" | awk '{print $NF}' >"$tmp/contents"
for f in ./usr/bin/mcptriage ./usr/share/man/man1/mcptriage.1 ./usr/share/bash-completion/completions/mcptriage \
         ./usr/share/zsh/site-functions/_mcptriage; do
  check "the package holds $f" grep -qx -- "$f" "$tmp/contents"
done
check "and nothing of the tests or benchmarks" bash -c '! grep -Eq "test|bench|gtest" "$1"' _ "$tmp/contents"
check "the package is named mcptriage" test "$(dpkg-deb -f "$deb" Package)" = mcptriage
depends=$(dpkg-deb -f "$deb" Depends)
echo "# Depends: $depends"
# The libraries the binary links (ldd of the built binary), each a Debian package in Depends.
# jemalloc only where the build links it (not under the sanitizers: scripts/test-sanitized).
libs="libc6 libstdc++6 libfmt9 libsimdjson14 libssl3 zlib1g libbrotli1 libzstd1 libarchive13"
if ldd "$build/mcptriage" | grep -q libjemalloc; then libs+=" libjemalloc2"; fi
for lib in $libs; do
  check "Depends names $lib" grep -q "\\b$lib\\b" <<<"$depends"
done
dpkg -x "$deb" "$tmp/root"
installed=$tmp/root/usr/bin/mcptriage
check "the installed binary is stripped" bash -c '! readelf -S "$1" | grep -q "\.debug_info"' _ "$installed"
check "the installed binary prints its version" bash -c '"$1" --version | grep -q "^mcptriage "' _ "$installed"
"$installed" --format jsonl "$root/testdata/real/bogus-session.txt" >"$tmp/out.jsonl" 2>/dev/null
check "the installed binary triages a sample" grep -q '"reason":"session_invalid"' "$tmp/out.jsonl"
check "the installed man page is the project's" cmp -s "$tmp/root/usr/share/man/man1/mcptriage.1" "$root/docs/mcptriage.1"
finish
