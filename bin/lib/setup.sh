# bin/hotpath setup: build and install every module of ours without running tests, and every release
# line's stock and patched broker distributions (upstream's source release + patches, upstream's own
# Maven build, no upstream tests) under broker-dist/target/. Nothing upstream is installed into ~/.m2.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

case "${1:-}" in
  "") ;;
  -h|--help) echo "usage: bin/hotpath setup"; exit 0 ;;
  *) die "setup takes no options (got '$1')" ;;
esac
require_jdk17
require_mvn
newest=$(newest_line)
info "building all modules and the $newest broker distributions (mvn install -DskipTests -Dhotpath.line=$newest)"
mvn_root -q install -DskipTests "-Dhotpath.line=$newest"
for line in $(known_lines); do
  [ "$line" != "$newest" ] || continue
  info "building the $line broker distributions"
  build_line "$line" both false -q -DskipTests
done
info "done: broker distributions in broker-dist/target/rocketmq-<line>-{stock,patched}/ for lines: $(known_lines)"
