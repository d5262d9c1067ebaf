# bin/hotpath campaign: stock vs patched in alternating rounds on the 2m-2s loopback cluster, with a
# Markdown report, JSON and PNG charts (or --ci: a short fault + store compatibility check). The Java
# side (io.hotpath.e2e.cli.Campaign) does the work and parses the options; this script makes sure both
# broker distributions exist, then runs the controller through bin/lib/smoke.sh's launcher (private
# network and PID namespace, Ctrl-C handling, stop by PID, leftover-process check).
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

help=false
for arg in "$@"; do
  case "$arg" in
    -h|--help) help=true ;;
  esac
done

if ! $help; then
  for flavor in stock patched; do
    dist="$HOTPATH_ROOT/broker-dist/target/rocketmq-4.9.0-$flavor"
    if [ ! -x "$dist/bin/mqbroker" ]; then
      info "the $flavor distribution is missing ($dist): building it (bin/hotpath build-broker --flavor $flavor)"
      bash "$HOTPATH_ROOT/bin/lib/build-broker.sh" --flavor "$flavor" || die "building the $flavor distribution failed"
    fi
  done
fi

HOTPATH_E2E_MAIN=io.hotpath.e2e.cli.Campaign exec bash "$HOTPATH_ROOT/bin/lib/smoke.sh" "$@"
