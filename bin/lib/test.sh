# bin/hotpath test: what CI runs.
#   1. mvn install: unit, contract and differential suites of every module, incl. the suites run
#      against the patched upstream classes from the custom broker build (broker-dist), and upstream's
#      own unit tests of each line's modules on the stock and the patched tree (upstream's Maven build,
#      checkstyle included): fails on any test that passes on stock and not on patched. Every line.
#   2. The patched 2m-2s smoke with both masters profiled live (async-profiler attach): fails on
#      any lost message or leftover process; the flame graphs must exist and show broker frames; both
#      masters must have decoded sends with the send-header patch's decoder (profile provenance).
#   3. A few-second JMH flame graph: must exist and show the benchmarked codec.
#   4. campaign --ci: kill -9 a slave mid-run (zero loss), store upgrade/rollback stock <-> patched.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

# enough load to outlast the 3 s warm-up + 5 s profile window at CI speeds (~1-3k msg/s)
smoke_messages=20000
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke-messages) [ $# -ge 2 ] || die "--smoke-messages needs a number"; smoke_messages="$2"; shift 2 ;;
    -h|--help) echo "usage: bin/hotpath test [--smoke-messages N]"; exit 0 ;;
    *) die "unknown option '$1' for test (see bin/hotpath test --help)" ;;
  esac
done
[[ "$smoke_messages" =~ ^[0-9]+$ ]] || die "--smoke-messages must be a whole number, got '$smoke_messages'"

require_jdk17
require_mvn
start=$(date +%s)
flames="$HOTPATH_ROOT/profiling/target/flamegraphs"

# newest directory matching a glob under $flames, or nothing
newest() { ls -1dt "$flames"/$1 2>/dev/null | head -n 1; }

# fails unless every listed file exists, is non-empty and contains the pattern (grep -E)
expect_frames() {
  local pattern="$1"; shift
  local f
  for f in "$@"; do
    [ -s "$f" ] || die "expected a non-empty profile at $f"
    grep -Eq "$pattern" "$f" || die "profile $f has no frame matching '$pattern'"
  done
}

# A line's descriptor may keep upstream's tests out of CI (ci.upstream.tests=false, with its reason and timing there);
# bin/hotpath build-broker --line <release> still runs them.
ci_upstream_tests() {
  if grep -q '^ci.upstream.tests=false$' "$HOTPATH_ROOT/patches/$1/line.properties"; then echo false; else echo true; fi
}

main_line=$(newest_line)
main_upstream=$(ci_upstream_tests "$main_line")
info "1/4 tests: mvn install (all modules, differential suites at their CI sizes; line $main_line, upstream's tests: $main_upstream)"
mvn_root install "-Dhotpath.line=$main_line" "-Dhotpath.upstream.tests=$main_upstream"
[ "$main_upstream" = false ] || cat "$HOTPATH_ROOT/broker-dist/target/upstream/$main_line/upstream-tests.md" >&2
for line in $(known_lines); do
  [ "$line" != "$main_line" ] || continue
  # broker-dist alone: the modules it needs were built and tested above (-am would run their suites again)
  if [ "$(ci_upstream_tests "$line")" = false ]; then
    info "1/4 tests: line $line: broker distributions and broker-dist's suites (upstream's tests: not in CI, see patches/$line/line.properties)"
    mvn_root -pl broker-dist verify "-Dhotpath.line=$line" -Dhotpath.flavor=both -Dhotpath.upstream.tests=false
  else
    info "1/4 tests: line $line: broker distributions, upstream's tests on both trees, broker-dist's suites"
    mvn_root -pl broker-dist verify "-Dhotpath.line=$line" -Dhotpath.flavor=both -Dhotpath.upstream.tests=true
    cat "$HOTPATH_ROOT/broker-dist/target/upstream/$line/upstream-tests.md" >&2
  fi
done

info "2/4 patched 2m-2s smoke ($smoke_messages messages) with both masters profiled"
bash "$HOTPATH_ROOT/bin/lib/profile.sh" cluster --dist patched --warmup 3 --seconds 5 --messages "$smoke_messages"
cluster_dir=$(newest 'cluster-patched-*')
[ -n "$cluster_dir" ] || die "profile cluster wrote no directory under $flames"
# flame graph HTML stores frame names prefix-compressed ("org/apache/" is shared), so match the tail
expect_frames 'rocketmq/(broker|store|remoting|common)/' \
  "$cluster_dir/broker-a-cpu.collapsed" "$cluster_dir/broker-b-cpu.collapsed" \
  "$cluster_dir/broker-a-cpu.html" "$cluster_dir/broker-b-cpu.html"
if ls "$HOTPATH_ROOT/patches/$main_line"/*-send-header-* >/dev/null 2>&1; then
  # with the send-header patch, both masters must have loaded its decoder from the patched broker jar, on a send
  # (class-load log + JFR class-load stacks; stock fails this, profiling/README.md "The provenance check")
  bash "$HOTPATH_ROOT/bin/lib/profile.sh" provenance "$cluster_dir"
fi

info "3/4 JMH flame graph of the properties codec (a few seconds)"
bash "$HOTPATH_ROOT/bin/lib/profile.sh" jmh --bench '\.PropertiesEncodeBenchmark\.hotpath$' --param corpus=small5 \
  --event cpu --warmup 1 --seconds 2
jmh_dir=$(newest 'jmh-*')
[ -n "$jmh_dir" ] || die "profile jmh wrote no directory under $flames"
expect_frames 'PropertiesEncoder|messageProperties2String' \
  "$jmh_dir"/PropertiesEncodeBenchmark.hotpath-*-cpu.collapsed "$jmh_dir"/PropertiesEncodeBenchmark.hotpath-*-cpu.html

info "4/4 campaign --ci: slave killed mid-run, store upgrade and rollback"
bash "$HOTPATH_ROOT/bin/lib/campaign.sh" --ci

info "all tests passed in $(( $(date +%s) - start )) s"
