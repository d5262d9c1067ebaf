#!/usr/bin/env bash
# bin/hotpath build-broker: builds a release line's stock and patched Apache RocketMQ broker distributions
# the way a user builds their own broker (module broker-dist, see broker-dist/pom.xml): upstream's source
# release from Maven Central, the line's patches applied with git apply, the touched modules built with
# upstream's own Maven build (checkstyle included) into a private repository under target/, and, by
# default, upstream's own unit tests of the line's modules on the stock and the patched tree.
# Works from a fresh clone: Maven also builds the modules broker-dist depends on (-am). Our own tests are
# not run here (bin/hotpath test runs them); the Maven output goes to broker-dist/target/build-broker-<line>.log.
set -euo pipefail

ROOT="${HOTPATH_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
export HOTPATH_ROOT="$ROOT"
# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

usage() {
  cat <<USAGE
usage: bin/hotpath build-broker [--line <release>|all] [--flavor stock|patched|both] [--no-upstream-tests]

  --line R             the release line (a folder patches/<release>/); default: all ($(known_lines))
  --flavor F           stock    upstream's source release built with upstream's build
                       patched  the same with patches/<release>/*.patch applied
                       both     (default)
  --no-upstream-tests  skip upstream's own unit tests (they need --flavor both; on 2 cores ~10 min for 4.9.0, ~12 for 4.9.8, ~54 for 5.3.3)

Prints one line per distribution: <flavor> <directory>, then upstream's test table (stock vs patched,
also in broker-dist/target/upstream/<release>/upstream-tests.{md,json}). Each distribution has
bin/mqnamesrv, bin/mqbroker, bin/mqadmin, conf/, lib/ and BUILD-INFO.txt.
USAGE
}

flavor=both
upstream_tests=true
line_arg=all
while [ $# -gt 0 ]; do
  case "$1" in
    --line) [ $# -ge 2 ] || die "option --line needs a release or 'all' (lines: $(known_lines))"; line_arg="$2"; shift 2 ;;
    --flavor)
      [ $# -ge 2 ] || die "option --flavor needs a value: stock, patched or both"
      flavor="$2"; shift 2 ;;
    --flavor=*) flavor="${1#--flavor=}"; shift ;;
    --no-upstream-tests) upstream_tests=false; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' for build-broker (see bin/hotpath build-broker --help)" ;;
  esac
done
case "$flavor" in
  stock|patched|both) ;;
  *) die "unknown flavor '$flavor' (expected stock, patched or both)" ;;
esac
[ "$flavor" = both ] || upstream_tests=false
if [ "$line_arg" = all ]; then
  read -r -a lines <<< "$(known_lines)"
else
  lines=("$(require_line "$line_arg")")
fi

require_jdk17
require_mvn
command -v git >/dev/null 2>&1 || die "git not found on PATH (patches are applied with git apply)"

for line in "${lines[@]}"; do
  log="$ROOT/broker-dist/target/build-broker-$line.log"
  mkdir -p "$(dirname "$log")"
  case "$flavor" in both) what="stock and patched $line broker distributions" ;; *) what="$flavor $line broker distribution" ;; esac
  [ "$upstream_tests" = true ] && what="$what, with upstream's unit tests on both trees"
  info "building the $what (log: ${log#"$ROOT"/})"
  started=$SECONDS
  if ! build_line "$line" "$flavor" "$upstream_tests" -DskipTests >"$log" 2>&1; then
    # the builder's own one-line error if it failed there, else Maven's first error line
    err=$(grep -m 1 '^hotpath: error: ' "$log" | sed 's/^hotpath: error: //' || true)
    [ -n "$err" ] || err=$(grep -m 1 '^\[ERROR\] ' "$log" | sed 's/^\[ERROR\] //' || true)
    report="$ROOT/broker-dist/target/upstream/$line/upstream-tests.md"
    [ ! -f "$report" ] || cat "$report" >&2
    die "${err:-Maven failed} (full log: $log)"
  fi
  found=0
  while IFS= read -r entry; do
    echo "$entry"
    found=$((found + 1))
  done < <(sed -n 's/^hotpath: \(stock\|patched\) distribution: *\(.*\)$/\1 \2/p' "$log")
  [ "$found" -gt 0 ] || die "Maven succeeded but reported no distribution (see $log)"
  if [ "$upstream_tests" = true ]; then
    echo
    cat "$ROOT/broker-dist/target/upstream/$line/upstream-tests.md"
  fi
  info "$line done in $((SECONDS - started)) s"
done
