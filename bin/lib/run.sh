# bin/hotpath run: the main job for a newcomer. Builds what it runs and nothing else: the e2e runner, then the newest
# line's (or --line's) stock and patched brokers from upstream's source release with upstream's own build (when missing or
# stale), then runs the 2m-2s loopback smoke on both, side by side. The options are the smoke's, checked before any build.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

case "${1:-}" in
  -h|--help) echo "usage: bin/hotpath run [smoke options, see bin/hotpath smoke --help]"; exit 0 ;;
esac
exec bash "$HOTPATH_ROOT/bin/lib/smoke.sh" --dist both "$@"
