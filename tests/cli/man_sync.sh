#!/usr/bin/env bash
# The man page (docs/mcptriage.1) and --help list the same long options.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/cli/lib.sh"
help_opts=$("$bin" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
# In roff, a dash is written \-; undo that before looking for options. The PROXY section
# documents `mcptriage proxy` and is checked against `mcptriage proxy --help`.
page=$(sed 's/\\-/-/g' "$root/docs/mcptriage.1")
man_opts=$(awk '/^\.SH (PROXY|WRAP|MOCK|REPLAY|STATS)/ {skip = 1; next} /^\.SH / {skip = 0} !skip' <<<"$page" | grep -E '^\.(TP|B|BR|BI)|^\.B' | grep -oE -- '--[a-z][a-z-]+' | sort -u)
for o in $help_opts; do
  check "man page documents $o" grep -qx -- "$o" <<<"$man_opts"
done
for o in $man_opts; do
  check "--help lists $o (named in the man page)" grep -qx -- "$o" <<<"$help_opts"
done
# section_sync NAME SECTION: the man page's SECTION documents `mcptriage NAME --help`'s options, and no other.
section_sync() {
  local name=$1 section=$2 sub_help sub_man o
  sub_help=$("$bin" "$name" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
  sub_man=$(awk -v s="^\\.SH $section" '$0 ~ s {on = 1; next} /^\.SH / {on = 0} on' <<<"$page" | grep -E '^\.(TP|B|BR|BI)|^\.B' | grep -oE -- '--[a-z][a-z-]+' | sort -u)
  for o in $sub_help; do
    check "man page $section section documents $name $o" grep -qx -- "$o" <<<"$sub_man"
  done
  for o in $sub_man; do
    check "$name --help lists $o (named in the $section section)" grep -qx -- "$o" <<<"$sub_help"
  done
}
section_sync proxy PROXY
section_sync wrap WRAP
section_sync replay REPLAY
# Subcommands: the triage --help lists the table of src/cli/main.cpp; each row's own --help works,
# and the man page names each (a row added without docs fails here).
subcommands=$("$bin" --help | sed -n '/^Subcommands/,/^$/p' | sed -nE 's/^  ([a-z][a-z-]*)  .*/\1/p')
check "--help lists the subcommands explain and proxy" bash -c 'grep -qx explain <<<"$0" && grep -qx proxy <<<"$0"' "$subcommands"
for c in $subcommands; do
  check "mcptriage $c --help exits 0 and prints its usage" bash -c '"$0" "$1" --help | grep -q "mcptriage $1"' "$bin" "$c"
  check "man page names the subcommand $c" grep -qE "^\.B mcptriage $c\b" <<<"$page"
done
# The STATS section documents what `stats --help` and `diff --help` add to the triage options.
stats_help=$( ("$bin" stats --help; "$bin" diff --help) | grep -oE -- '--[a-z][a-z-]+' | sort -u)
stats_man=$(awk '/^\.SH STATS/ {on = 1; next} /^\.SH / {on = 0} on' <<<"$page" | grep -E '^\.(TP|B|BR|BI)|^\.B' | grep -oE -- '--[a-z][a-z-]+' | sort -u)
for o in $stats_help; do
  grep -qx -- "$o" <<<"$help_opts" && continue
  check "man page STATS section documents $o" grep -qx -- "$o" <<<"$stats_man"
done
for o in $stats_man; do
  check "stats or diff --help lists $o (named in the STATS section)" grep -qx -- "$o" <<<"$stats_help"
done
check "man page renders without warnings" bash -c '[ -z "$(groff -man -Tutf8 -ww -z "$0" 2>&1)" ]' "$root/docs/mcptriage.1"
finish
