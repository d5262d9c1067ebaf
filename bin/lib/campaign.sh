# bin/hotpath campaign: stock vs patched in alternating rounds on the 2m-2s loopback cluster, with a
# Markdown report, JSON and PNG charts (or --ci: a short fault + store compatibility check). The Java
# side (io.hotpath.e2e.cli.Campaign) does the work and parses the options; this script makes sure both
# broker distributions exist, then runs the controller through bin/lib/smoke.sh's launcher (private
# network and PID namespace, Ctrl-C handling, stop by PID, leftover-process check).
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

help=false
line=""
prev=""
for arg in "$@"; do
  case "$arg" in
    -h|--help) help=true ;;
    --line=*) line="${arg#--line=}" ;;
  esac
  [ "$prev" = "--line" ] && line="$arg"
  prev="$arg"
done
[ "$prev" = "--line" ] && die "option --line needs a value (see bin/hotpath campaign --help)"

if ! $help; then
  # the line whose distributions are checked here is the one the controller uses: it is passed on explicitly
  given="$line"
  line="$(release_line "$line")"
  for flavor in stock patched; do
    dist="$HOTPATH_ROOT/broker-dist/target/rocketmq-$line-$flavor"
    if [ ! -x "$dist/bin/mqbroker" ]; then
      info "the $flavor distribution of $line is missing ($dist): building it (bin/hotpath build-broker --line $line --flavor $flavor)"
      bash "$HOTPATH_ROOT/bin/lib/build-broker.sh" --line "$line" --flavor "$flavor" || die "building the $flavor distribution failed"
      [ -x "$dist/bin/mqbroker" ] || die "bin/hotpath build-broker did not produce $dist"
    fi
  done
  [ -n "$given" ] || set -- "$@" --line "$line"
fi

HOTPATH_E2E_MAIN=io.hotpath.e2e.cli.Campaign exec bash "$HOTPATH_ROOT/bin/lib/smoke.sh" "$@"
