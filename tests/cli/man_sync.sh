#!/usr/bin/env bash
# The man page (docs/mcptriage.1) and --help list the same long options.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
help_opts=$("$bin" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
# In roff, a dash is written \-; undo that before looking for options.
man_opts=$(sed 's/\\-/-/g' "$root/docs/mcptriage.1" | grep -E '^\.(TP|B|BR|BI)|^\.B' | grep -oE -- '--[a-z][a-z-]+' | sort -u)
for o in $help_opts; do
  check "man page documents $o" grep -qx -- "$o" <<<"$man_opts"
done
for o in $man_opts; do
  check "--help lists $o (named in the man page)" grep -qx -- "$o" <<<"$help_opts"
done
check "man page renders without warnings" bash -c '[ -z "$(groff -man -Tutf8 -ww -z "$0" 2>&1)" ]' "$root/docs/mcptriage.1"
finish
