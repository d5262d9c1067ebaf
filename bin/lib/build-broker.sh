#!/usr/bin/env bash
# bin/hotpath build-broker: builds the stock and/or the patched Apache RocketMQ broker distribution
# from Maven Central artifacts (module broker-dist, see broker-dist/pom.xml) and prints where they are.
# Works from a fresh clone: Maven also builds the modules broker-dist depends on (-am). Tests are not
# run here (bin/hotpath test runs them); the Maven output goes to broker-dist/target/build-broker.log.
set -euo pipefail

ROOT="${HOTPATH_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
export HOTPATH_ROOT="$ROOT"
# shellcheck source=common.sh
source "$ROOT/bin/lib/common.sh"

usage() {
  cat <<USAGE
usage: bin/hotpath build-broker [--flavor stock|patched|both]

  --flavor F   stock    upstream 4.9.0 jars only
               patched  stock with the jars rebuilt from patches/4.9.0/*.patch (git apply, javac --release 8)
               both     (default)

Prints one line per distribution: <flavor> <directory>. Each has bin/mqnamesrv, bin/mqbroker,
bin/mqadmin, conf/, lib/ and BUILD-INFO.txt.
USAGE
}

flavor=both
while [ $# -gt 0 ]; do
  case "$1" in
    --flavor)
      [ $# -ge 2 ] || die "option --flavor needs a value: stock, patched or both"
      flavor="$2"; shift 2 ;;
    --flavor=*) flavor="${1#--flavor=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' for build-broker (usage: bin/hotpath build-broker [--flavor stock|patched|both])" ;;
  esac
done
case "$flavor" in
  stock|patched|both) ;;
  *) die "unknown flavor '$flavor' (expected stock, patched or both)" ;;
esac

require_jdk17
require_mvn
command -v git >/dev/null 2>&1 || die "git not found on PATH (patches are applied with git apply)"

log="$ROOT/broker-dist/target/build-broker.log"
mkdir -p "$(dirname "$log")"
case "$flavor" in both) what="stock and patched broker distributions" ;; *) what="$flavor broker distribution" ;; esac
info "building the $what with Maven (log: ${log#"$ROOT"/})"
started=$SECONDS
if ! mvn_root -pl broker-dist -am install -DskipTests "-Dhotpath.flavor=$flavor" >"$log" 2>&1; then
  # the builder's own one-line error if it failed there, else Maven's first error line
  line=$(grep -m 1 '^hotpath: error: ' "$log" | sed 's/^hotpath: error: //' || true)
  [ -n "$line" ] || line=$(grep -m 1 '^\[ERROR\] ' "$log" | sed 's/^\[ERROR\] //' || true)
  die "${line:-Maven failed} (full log: $log)"
fi

found=0
while IFS= read -r entry; do
  echo "$entry"
  found=$((found + 1))
done < <(sed -n 's/^hotpath: \(stock\|patched\) distribution: *\(.*\)$/\1 \2/p' "$log")
[ "$found" -gt 0 ] || die "Maven succeeded but reported no distribution (see $log)"
info "done in $((SECONDS - started)) s"
