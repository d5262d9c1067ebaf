# bin/hotpath setup: build every module of ours without running tests (verify: nothing goes to ~/.m2; later
# builds take our modules from this tree, .mvn/maven.config: --also-make), and every release
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
info "building all modules and the $newest broker distributions (mvn verify -DskipTests -Dhotpath.line=$newest)"
mvn_root -q verify -DskipTests "-Dhotpath.line=$newest"
for line in $(known_lines); do
  [ "$line" != "$newest" ] || continue
  info "building the $line broker distributions"
  build_line "$line" both false -q -DskipTests
done
info "done: broker distributions in broker-dist/target/rocketmq-<line>-{stock,patched}/ for lines: $(known_lines)"
