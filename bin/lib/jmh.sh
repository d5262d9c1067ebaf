# bin/hotpath jmh: run the JMH benchmarks (all, or those matching --include) in one JMH invocation
# with -prof gc; writes jmh/target/jmh-result.json and jmh/target/jmh-summary.md.
# A thin wrapper over `mvn -pl jmh verify -Djmh.*=...` (see jmh/README.md for every property).
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

usage() {
  cat <<USAGE
usage: bin/hotpath jmh [--include REGEX] [--forks N] [--quick] [--list]

  --include REGEX  only benchmarks whose full name matches REGEX (JMH syntax), e.g. Parse or 'Encode.*hotpath'
  --forks N        forks per benchmark (default: AbstractBenchmark.FORKS; quote figures from 4 or more)
  --quick          development settings: 1 fork, 2 warmup + 3 measurement iterations of 1 s (noisy)
  --list           list the matching benchmarks and their parameters, run nothing

Needs the project installed first (bin/hotpath setup). Longer or other settings: mvn -pl jmh verify -Djmh....
USAGE
}

# the summary header shows the command as typed
export HOTPATH_JMH_COMMAND="bin/hotpath jmh${*:+ $*}"
mvn_args=(-pl jmh verify)
quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --include)
      [ $# -ge 2 ] && [ -n "$2" ] || die "--include needs a regular expression"
      mvn_args+=("-Djmh.include=$2"); shift 2 ;;
    --forks)
      [ $# -ge 2 ] || die "--forks needs a number"
      [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "--forks must be a positive whole number, got '$2'"
      mvn_args+=("-Djmh.forks=$2"); shift 2 ;;
    --quick)
      mvn_args+=(-Djmh.warmupIterations=2 -Djmh.iterations=3 -Djmh.warmupTime=1s -Djmh.time=1s)
      quick=1; shift ;;
    --list) mvn_args+=(-Djmh.list=true); shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' for jmh (see bin/hotpath jmh --help)" ;;
  esac
done
# --forks wins over the quick default, in either order
if [ "$quick" = 1 ] && [[ " ${mvn_args[*]} " != *" -Djmh.forks="* ]]; then
  mvn_args+=(-Djmh.forks=1)
fi

require_jdk17
require_mvn
info "mvn -B ${mvn_args[*]}"
mvn_root "${mvn_args[@]}" || die "benchmark run failed (see the output above; missing io.hotpath artifacts? run bin/hotpath setup first)"
