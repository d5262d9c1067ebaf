# bin/hotpath setup: build and install every module without running tests. This also builds the
# stock and patched 4.9.0 broker distributions under broker-dist/target/.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

case "${1:-}" in
  "") ;;
  -h|--help) echo "usage: bin/hotpath setup"; exit 0 ;;
  *) die "setup takes no options (got '$1')" ;;
esac
require_jdk17
require_mvn
info "building all modules and both broker distributions (mvn install -DskipTests)"
mvn_root -q install -DskipTests
info "done: broker distributions in broker-dist/target/rocketmq-4.9.0-{stock,patched}/"
