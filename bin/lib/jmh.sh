# bin/hotpath jmh: run the JMH benchmarks (all, or those matching --include) in one JMH invocation
# with -prof gc; writes jmh/target/jmh-result.json and jmh/target/jmh-summary.md.
# A thin wrapper over `mvn -pl jmh verify -Djmh.*=...` (see jmh/README.md for every property); what follows `--`
# goes to JMH unchanged, through a file (-Djmh.argsFile), so an argument keeps its spaces and quotes.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

usage() {
  cat <<USAGE
usage: bin/hotpath jmh [--include REGEX] [--forks N] [--quick] [--list] [-- JMH-OPTION...]
       bin/hotpath jmh --line RELEASE [--write-results FILE]
       bin/hotpath jmh -- -f 1 -wi 2 -i 3 'PropertiesParse.*'    (JMH's own options; bin/hotpath jmh -- -h lists them)

  --include REGEX  only benchmarks whose full name matches REGEX (JMH syntax), e.g. Parse or 'Encode.*hotpath'
  --forks N        forks per benchmark (default: AbstractBenchmark.FORKS; quote figures from 4 or more)
  --quick          development settings: 1 fork, 2 warmup + 3 measurement iterations of 1 s (noisy)
  --list           list the matching benchmarks and their parameters, run nothing
  --line RELEASE   the quotable run of a release line: exactly the benchmarks its patches' Results quote
                   (jmh/src/main/resources/io/hotpath/jmh/results/RELEASE.quotes), 4 forks x (3 + 5) x 1 s,
                   into docs/results/jmh-RELEASE-<date>.json (+ .md); ~10 min, on a quiet machine
  --write-results FILE  with --line: rewrite the Result of every patch of the line from FILE (no run)
  -- JMH-OPTION... go to JMH unchanged, after the runner's own options; one given here replaces the runner's
                   (-f, -wi, -w, -i, -r, benchmark regexps, -p NAME, -prof gc, -foe; -rf/-rff: then no summary)

Maven builds the modules it measures from this tree first (.mvn/maven.config: --also-make).
Longer or other settings: mvn -pl jmh verify -Djmh....
USAGE
}

# the summary header shows the command as typed, each argument shell-quoted as needed
command_line="bin/hotpath jmh"
[ $# -eq 0 ] || command_line+=$(printf ' %q' "$@")
export HOTPATH_JMH_COMMAND="$command_line"
mvn_args=(-pl jmh verify)
quick=0
jmh_options=()
passes_through=0
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; jmh_options=("$@"); passes_through=1; break ;;
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
    --line)
      [ $# -ge 2 ] || die "--line needs a release line ($(known_lines))"
      line=$(require_line "$2")
      mvn_args+=("-Djmh.line=$line"); shift 2 ;;
    --write-results)
      [ $# -ge 2 ] && [ -n "$2" ] || die "--write-results needs a JMH result file (docs/results/jmh-<line>-<date>.json)"
      [ -f "$2" ] || die "no result file '$2'"
      mvn_args+=("-Djmh.writeResults=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")" -DskipTests); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' for jmh (see bin/hotpath jmh --help)" ;;
  esac
done
# --forks wins over the quick default, in either order
if [ "$quick" = 1 ] && [[ " ${mvn_args[*]} " != *" -Djmh.forks="* ]]; then
  mvn_args+=(-Djmh.forks=1)
fi
if [ "$passes_through" = 1 ] && [[ " ${mvn_args[*]} " == *" -Djmh.writeResults="* ]]; then
  die "--write-results runs no benchmark: nothing to pass to JMH after --"
fi

require_jdk17
require_mvn
if [ "$passes_through" = 1 ]; then
  # each argument followed by NUL, the one byte no argument can hold (io.hotpath.jmh.runner.ArgsFile reads it);
  # a file of its own per run, under jmh/target/, removed when this script ends
  mkdir -p "$HOTPATH_ROOT/jmh/target"
  args_file=$(mktemp "$HOTPATH_ROOT/jmh/target/jmh-args.XXXXXX")
  trap 'rm -f "$args_file"' EXIT
  [ ${#jmh_options[@]} -eq 0 ] || printf '%s\0' "${jmh_options[@]}" > "$args_file"
  mvn_args+=("-Djmh.argsFile=$args_file")
fi
info "mvn -B ${mvn_args[*]}"
mvn_root "${mvn_args[@]}" || die "benchmark run failed (see the output above)"
