# bin/hotpath campaign: stock vs patched in alternating rounds on the 2m-2s loopback cluster, with a
# Markdown report, JSON and PNG charts (or --ci: a short fault + store compatibility check); with
# --lines R1,R2 the stock and patched builds of several lines in one rotation per round. The Java side
# (io.hotpath.e2e.cli.CampaignCommand) does the work and parses the options; this script makes sure every arm's
# broker distribution exists, then runs the controller through bin/lib/smoke.sh's launcher (private
# network and PID namespace, Ctrl-C handling, stop by PID, leftover-process check).
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

help=false
line=""
lines=""
lines_given=false
prev=""
for arg in "$@"; do
  case "$arg" in
    -h|--help) help=true ;;
    --line=*) line="${arg#--line=}" ;;
    --lines=*) lines="${arg#--lines=}"; lines_given=true ;;
  esac
  [ "$prev" = "--line" ] && line="$arg"
  if [ "$prev" = "--lines" ]; then
    case "$arg" in -*) die "option --lines needs a value (see bin/hotpath campaign --help)" ;; esac
    lines="$arg"
    lines_given=true
  fi
  prev="$arg"
done
[ "$prev" = "--line" ] && die "option --line needs a value (see bin/hotpath campaign --help)"
[ "$prev" = "--lines" ] && die "option --lines needs a value (see bin/hotpath campaign --help)"

# Builds the flavor distribution of a line unless it is there.
ensure_distribution() {
  local line="$1" flavor="$2"
  local dist="$HOTPATH_ROOT/broker-dist/target/rocketmq-$line-$flavor"
  if [ ! -x "$dist/bin/mqbroker" ]; then
    info "the $flavor distribution of $line is missing ($dist): building it (bin/hotpath build-broker --line $line --flavor $flavor)"
    bash "$HOTPATH_ROOT/bin/lib/build-broker.sh" --line "$line" --flavor "$flavor" || die "building the $flavor distribution failed"
    [ -x "$dist/bin/mqbroker" ] || die "bin/hotpath build-broker did not produce $dist"
  fi
}

if ! $help; then
  if $lines_given; then
    [ -z "$line" ] || die "--line and --lines cannot be combined (--lines already runs stock and patched of each line)"
    # every line checked before anything is built: a build takes minutes, and the controller refuses a partial
    # line (io.hotpath.e2e.spec.ReleaseLines) only once it runs; it also checks the list's form and duplicates
    IFS=',' read -r -a requested <<< "$lines"
    [ "${#requested[@]}" -gt 0 ] || die "--lines needs at least one release line, such as --lines 4.9.0,4.9.8 (lines: $(known_lines))"
    checked=()
    for r in "${requested[@]}"; do
      r="${r//[[:space:]]/}"
      r="$(require_line "$r")"
      ! grep -q '^complete=false$' "$HOTPATH_ROOT/patches/$r/line.properties" \
        || die "release line '$r' is partial (complete=false in its line.properties): a campaign needs every patch of a line"
      checked+=("$r")
    done
    for r in "${checked[@]}"; do
      for flavor in stock patched; do
        ensure_distribution "$r" "$flavor"
      done
    done
  else
    # the line whose distributions are checked here is the one the controller uses: it is passed on explicitly
    given="$line"
    line="$(release_line "$line")"
    # refused before a build, as with --lines (the smoke runs a named partial line; a campaign does not)
    ! grep -q '^complete=false$' "$HOTPATH_ROOT/patches/$line/line.properties" \
      || die "release line '$line' is partial (complete=false in its line.properties): a campaign needs every patch of a line; bin/hotpath smoke --line $line runs it"
    for flavor in stock patched; do
      ensure_distribution "$line" "$flavor"
    done
    [ -n "$given" ] || set -- "$@" --line "$line"
  fi
fi

HOTPATH_E2E_MAIN=io.hotpath.e2e.cli.CampaignCommand exec bash "$HOTPATH_ROOT/bin/lib/smoke.sh" "$@"
