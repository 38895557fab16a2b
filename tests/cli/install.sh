#!/usr/bin/env bash
# `cmake --install` puts the binary, the man page and the bash/zsh completions in place,
# and the bash completion completes options and outcome names.
set -u
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
check "binary installed" test -x "$prefix/bin/mcptriage"
check "installed binary runs" "$prefix/bin/mcptriage" --version
check "man page installed" test -f "$prefix/share/man/man1/mcptriage.1"
check "bash completion installed" test -f "$prefix/share/bash-completion/completions/mcptriage"
check "zsh completion installed" test -f "$prefix/share/zsh/site-functions/_mcptriage"
complete_words() {
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mcptriage; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$prefix/share/bash-completion/completions/mcptriage" "$@"
}
check "bash completes --fo to --format" grep -qx -- '--format' <<<"$(complete_words mcptriage --fo)"
check "bash completes --format values" grep -qx 'jsonl' <<<"$(complete_words mcptriage --format j)"
check "bash completes outcome lists after a comma" grep -qx 'TOOL_SUCCESS,HTTP_ERROR' <<<"$(complete_words mcptriage --expect TOOL_SUCCESS,HTTP_E)"
if command -v zsh >/dev/null 2>&1; then
  check "zsh completion parses" zsh -n "$prefix/share/zsh/site-functions/_mcptriage"
fi
finish
