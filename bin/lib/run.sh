# bin/hotpath run: the main job for a newcomer. Installs everything (no tests), builds the stock
# and patched brokers of every release line, then runs the 2m-2s loopback smoke on both, side by side.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

case "${1:-}" in
  "") ;;
  -h|--help) echo "usage: bin/hotpath run [smoke options, see bin/hotpath smoke --help]"; exit 0 ;;
esac
bash "$HOTPATH_ROOT/bin/lib/setup.sh"
bash "$HOTPATH_ROOT/bin/lib/smoke.sh" --dist both "$@"
