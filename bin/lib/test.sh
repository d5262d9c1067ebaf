# bin/hotpath test: what CI runs.
#   1. mvn verify: unit, contract and differential suites of every module, incl. the suites run
#      against the patched upstream classes from the custom broker build (broker-dist), and upstream's
#      own unit test classes that exercise each line's patches (upstream.tests.ci.* in its descriptor) on the
#      stock and the patched tree (upstream's Maven build, checkstyle included): fails on any test that
#      passes on stock and not on patched (UpstreamTestReport). Every line; the full modules run in build-broker.
# How long each step took goes to target/ci-timings.json.
#   2. The patched 2m-2s smoke with both masters profiled live (async-profiler attach): fails on
#      any lost message or leftover process; the flame graphs must exist and show broker frames; both
#      masters must have decoded sends with the send-header patch's decoder (profile provenance).
#   3. A few-second JMH flame graph: must exist and show the benchmarked codec.
#   4. campaign --ci: kill -9 a slave mid-run (zero loss), store upgrade/rollback stock <-> patched.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

# enough load to outlast the 3 s warm-up + 5 s profile window at the smoke's paced 1000 msg/s
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

# CI step timings: timed <step> <line, or - for none> <command...> runs the command and rewrites
# target/ci-timings.json with every step so far (a failed step is recorded with its exit code, then fails the run).
ci_timings="$HOTPATH_ROOT/target/ci-timings.json"
ci_timing_rows=()
timed() {
  local step="$1" line="$2" t0=$SECONDS rc=0 sep="" row
  shift 2
  "$@" || rc=$?
  ci_timing_rows+=("{\"step\": \"$step\", \"line\": $([ "$line" = - ] && echo null || echo "\"$line\""), \"seconds\": $((SECONDS - t0)), \"exit\": $rc}")
  mkdir -p "$(dirname "$ci_timings")"
  {
    printf '{\n  "started": "%s",\n  "steps": [' "$(date -u -d "@$start" +%Y-%m-%dT%H:%M:%SZ)"
    for row in "${ci_timing_rows[@]}"; do printf '%s\n    %s' "$sep" "$row"; sep=","; done
    printf '\n  ],\n  "seconds": %d\n}\n' "$(( $(date +%s) - start ))"
  } > "$ci_timings"
  return "$rc"
}

main_line=$(newest_line)
info "1/4 tests: mvn verify (all modules, differential suites at their CI sizes; line $main_line, upstream's listed test classes)"
# broker-dist's differential suites at 5,000 cases per property in CI (its pom says why; build-broker runs 100,000):
# they prove each patched broker's wiring; CI went over its hour at 10,000 (2026-11-26)
dist_tries=-Dhotpath.dist.tries=5000
timed "mvn verify + line $main_line broker-dist (upstream tests: ci)" "$main_line" \
  mvn_root verify "-Dhotpath.line=$main_line" -Dhotpath.upstream.tests=ci "$dist_tries"
cat "$HOTPATH_ROOT/broker-dist/target/upstream/$main_line/upstream-tests.md" >&2
for line in $(known_lines); do
  [ "$line" != "$main_line" ] || continue
  # broker-dist's suites only: Maven rebuilds the modules it needs (.mvn/maven.config: --also-make) and skips
  # their tests, which ran above
  info "1/4 tests: line $line: broker distributions, upstream's listed test classes on both trees, broker-dist's suites"
  timed "line $line broker-dist (upstream tests: ci)" "$line" \
    mvn_root -pl broker-dist verify "-Dhotpath.line=$line" -Dhotpath.flavor=both -Dhotpath.upstream.tests=ci "$dist_tries"
  cat "$HOTPATH_ROOT/broker-dist/target/upstream/$line/upstream-tests.md" >&2
done

info "2/4 patched 2m-2s smoke ($smoke_messages messages) with both masters profiled"
# paced: the smoke fails on any send the broker rejects (SYSTEM_BUSY), and unpaced under the profiler it once got one;
# 1000 msg/s is well below what the 2-core CI machine holds, and 20000 messages outlast warm-up + profile (20 s)
timed "patched smoke, profiled" "$main_line" \
  bash "$HOTPATH_ROOT/bin/lib/profile.sh" cluster --dist patched --warmup 3 --seconds 5 --messages "$smoke_messages" --rate 1000
cluster_dir=$(newest 'cluster-patched-*')
[ -n "$cluster_dir" ] || die "profile cluster wrote no directory under $flames"
expect_frames 'org/apache/rocketmq/(broker|store|remoting|common)/' \
  "$cluster_dir/broker-a-cpu.collapsed" "$cluster_dir/broker-b-cpu.collapsed" \
  "$cluster_dir/broker-a-cpu.html" "$cluster_dir/broker-b-cpu.html"
if ls "$HOTPATH_ROOT/patches/$main_line"/*-send-header-* >/dev/null 2>&1; then
  # with the send-header patch, both masters must have loaded its decoder from the patched broker jar, on a send
  # (class-load log + JFR class-load stacks; stock fails this, profiling/README.md "The provenance check")
  bash "$HOTPATH_ROOT/bin/lib/profile.sh" provenance "$cluster_dir"
fi

info "3/4 JMH flame graph of the properties codec (a few seconds)"
timed "JMH flame graph" - bash "$HOTPATH_ROOT/bin/lib/profile.sh" jmh --bench '\.PropertiesEncodeBenchmark\.hotpath$' \
  --param corpus=small5 --event cpu --warmup 1 --seconds 2
jmh_dir=$(newest 'jmh-*')
[ -n "$jmh_dir" ] || die "profile jmh wrote no directory under $flames"
expect_frames 'PropertiesEncoder|messageProperties2String' \
  "$jmh_dir"/PropertiesEncodeBenchmark.hotpath-*-cpu.collapsed "$jmh_dir"/PropertiesEncodeBenchmark.hotpath-*-cpu.html

info "4/4 campaign --ci: slave killed mid-run, store upgrade and rollback"
timed "campaign --ci" "$main_line" bash "$HOTPATH_ROOT/bin/lib/campaign.sh" --ci

info "all tests passed in $(( $(date +%s) - start )) s (per step: ${ci_timings#"$HOTPATH_ROOT"/})"
