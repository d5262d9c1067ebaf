# bin/hotpath test: what CI runs. Unit, contract and differential tests of every module (incl.
# the patched upstream classes from the custom broker build), then a short 2m-2s smoke on the
# patched distribution that fails on any lost message or leftover process.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

smoke_messages=3000
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke-messages) [ $# -ge 2 ] || die "--smoke-messages needs a number"; smoke_messages="$2"; shift 2 ;;
    -h|--help) echo "usage: bin/hotpath test [--smoke-messages N]"; exit 0 ;;
    *) die "unknown option '$1' for test (see bin/hotpath test --help)" ;;
  esac
done
[[ "$smoke_messages" =~ ^[0-9]+$ ]] || die "--smoke-messages must be a whole number, got '$smoke_messages'"

require_jdk17
require_mvn
start=$(date +%s)
info "1/2 tests: mvn install (all modules, differential suites at their CI sizes)"
mvn_root install
info "2/2 smoke: patched 2m-2s cluster, $smoke_messages messages"
bash "$HOTPATH_ROOT/bin/lib/smoke.sh" --dist patched -n "$smoke_messages" -w 8 -s 1024 -t 8
info "all tests passed in $(( $(date +%s) - start )) s"
