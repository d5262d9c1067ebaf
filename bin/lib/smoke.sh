# bin/hotpath smoke: start a 2m-2s RocketMQ cluster of one release line on 127.0.0.1, send, read everything back,
# verify zero loss, stop everything. The Java side (io.hotpath.e2e.cli.ClusterSmoke) does the work and
# parses the options; this script builds it if needed, and puts it in a private network namespace.
#
# Why a namespace: RocketMQ 4.9.x's remoting and HA servers bind 0.0.0.0 and have no bind-address
# option. `unshare --net` gives the whole run (controller JVM, name server, four brokers) a network
# with only loopback; `--pid --fork --mount-proc --kill-child` makes the controller PID 1 of its own
# PID namespace, so if it dies in any way (even SIGKILL) the kernel kills every process it started.
# The controller still stops its processes by PID itself (SIGTERM, grace, SIGKILL). That takes root or
# CAP_SYS_ADMIN; any other user gets the same inside a user namespace of their own where the kernel allows
# it, loopback only (common.sh: private_netns_unshare).
# With --net realistic the controller (io.hotpath.e2e.node.ClusterNetwork) nests a namespace per server
# inside this one, so that too stays off the host network and ends with the run.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

E2E="$HOTPATH_ROOT/e2e"
RUN_ROOT="$E2E/target/e2e"
# bin/lib/campaign.sh runs its controller (io.hotpath.e2e.cli.CampaignCommand) through this same launcher
MAIN="${HOTPATH_E2E_MAIN:-io.hotpath.e2e.cli.ClusterSmoke}"

netns=true
help=false
net=loopback # the --net mode, for private_netns_unshare only: the Java side parses and checks the options
previous=""
for arg in "$@"; do
  case "$arg" in
    --no-netns) netns=false ;;
    -h|--help) help=true ;;
    --net=*) net="${arg#--net=}" ;;
  esac
  [ "$previous" != --net ] || net="$arg"
  previous="$arg"
done

require_jdk17
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# Build the e2e modules when never built or older than their sources (package rewrites the jar when
# any class changed, and the runtime classpath file). e2e-client498 and e2e-client533 are the smoke's
# rocketmq-client 4.9.8 and 5.3.3 child JVMs (io.hotpath.e2e.check.NewerClientCheck: which of them a line runs);
# they need the e2e jar, so all build together.
CLIENTS=(client498 client533)
jar="$E2E/target/hotpath-e2e.jar"
stale() { # <module dir> <jar>: true when the jar or classpath file is missing or older than the module's sources
  [ ! -f "$1/target/runtime-classpath.txt" ] || [ ! -f "$2" ] \
    || [ -n "$(find "$1/src/main" -newer "$2" -print -quit)" ] || [ "$1/pom.xml" -nt "$1/target/runtime-classpath.txt" ]
}
# (Maven recompiles the client modules when the e2e classes they use changed.)
stale_module=false
stale "$E2E" "$jar" && stale_module=true
for c in "${CLIENTS[@]}"; do
  stale "$HOTPATH_ROOT/e2e-$c" "$HOTPATH_ROOT/e2e-$c/target/hotpath-e2e-$c.jar" && stale_module=true
done
if $stale_module; then
  require_mvn
  modules="e2e$(printf ',e2e-%s' "${CLIENTS[@]}")"
  info "building the e2e modules (mvn -pl $modules package -DskipTests)"
  mvn_root -q -pl "$modules" package -DskipTests >&2 || die "building the e2e modules failed (see the Maven output above)"
fi
dependencies="$(cat "$E2E/target/runtime-classpath.txt")"

jvm_flags=(-Xms256m -Xmx1g -XX:+UseG1GC
  --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED --add-exports java.base/jdk.internal.ref=ALL-UNNAMED)
if $help; then
  exec "$java_bin" "${jvm_flags[@]}" -cp "$jar:$dependencies" "$MAIN" --help
fi

# Outside the namespace (Maven needs the network): check the options, and build the line's distributions this smoke
# runs when they are missing or stale (io.hotpath.e2e.cli.SmokePreparation); bad input fails here, before any build
if [ "$MAIN" = io.hotpath.e2e.cli.ClusterSmoke ]; then
  "$java_bin" "${jvm_flags[@]}" "-Dhotpath.root=$HOTPATH_ROOT" -cp "$jar:$dependencies" io.hotpath.e2e.cli.SmokePreparation "$@" \
    || exit $?
fi

unshare_cmd=()
if $netns; then
  unshare_line="$(private_netns_unshare "$net")" || exit $?
  read -ra unshare_cmd <<< "$unshare_line"
fi

# Claim a run stamp: mkdir fails if a concurrent smoke started in the same second.
mkdir -p "$RUN_ROOT"
while stamp="$(date +%Y%m%d-%H%M%S)"; client_home="$RUN_ROOT/$stamp-client"; ! mkdir "$client_home" 2>/dev/null; do
  sleep 1
done
mkdir -p "$client_home/tmp"
# run from a copy: a rebuild of the module while the smoke runs must not pull classes from under it
cp "$jar" "$client_home/hotpath-e2e.jar"
classpath="$client_home/hotpath-e2e.jar:$dependencies"
# each client child JVM: its own jar, the e2e classes it reuses, its rocketmq-client (never 4.9.0)
client_props=()
for c in "${CLIENTS[@]}"; do
  cp "$HOTPATH_ROOT/e2e-$c/target/hotpath-e2e-$c.jar" "$client_home/hotpath-e2e-$c.jar"
  client_props+=("-Dhotpath.e2e.$c.classpath=$client_home/hotpath-e2e-$c.jar:$client_home/hotpath-e2e.jar:$(cat "$HOTPATH_ROOT/e2e-$c/target/runtime-classpath.txt")")
done
# PerfDisableSharedMem and java.io.tmpdir: nothing in /tmp (a PID-namespace JVM's hsperfdata file
# would be named after its namespace PID and clash with host JVMs' files)
java_cmd=("$java_bin" "${jvm_flags[@]}" -XX:+PerfDisableSharedMem "-Djava.io.tmpdir=$client_home/tmp"
  "-Duser.home=$client_home" "-Dhotpath.root=$HOTPATH_ROOT" "-Dhotpath.e2e.runRoot=$RUN_ROOT"
  "-Dhotpath.e2e.stamp=$stamp" "-Dhotpath.e2e.exitFile=$client_home/exit-code"
  "${client_props[@]}" -cp "$classpath" "$MAIN" "$@")

# A background job of a non-interactive shell ignores SIGINT, and so do the JVMs under it: Ctrl-C
# reaches only this script, which asks the controller to stop (SIGTERM runs its shutdown hook, which
# stops the cluster by PID). In namespace mode the controller is unshare's only child. The traps are
# set before the launch so that no signal can slip in between.
launcher=""
interrupted=""
stop_controller() {
  interrupted="$1"
  [ -n "$launcher" ] || return 0
  local target=""
  $netns && target="$(pgrep -P "$launcher" 2>/dev/null | head -n 1 || true)"
  info "$interrupted received: stopping the cluster"
  kill -TERM "${target:-$launcher}" 2>/dev/null || true
}
trap 'stop_controller SIGINT' INT
trap 'stop_controller SIGTERM' TERM
trap 'stop_controller SIGHUP' HUP

if $netns; then
  # bash -c brings up lo, then execs the JVM, which becomes PID 1 of the new PID namespace
  "${unshare_cmd[@]}" bash -c 'ip link set lo up && exec "$@"' hotpath-smoke "${java_cmd[@]}" &
else
  "${java_cmd[@]}" &
fi
launcher=$!
[ -z "$interrupted" ] || stop_controller "$interrupted"

rc=0
wait "$launcher" || rc=$?
# a trapped signal interrupts `wait`; keep waiting until the controller has really exited
while kill -0 "$launcher" 2>/dev/null; do
  rc=0
  wait "$launcher" || rc=$?
done
trap - INT TERM HUP

# Safety net for the case the controller could not clean up (e.g. it was SIGKILLed with --no-netns):
# anything still running whose command line names this run's directories is ours; stop it by PID.
leftovers="$( (pgrep -f -- "$RUN_ROOT/$stamp-"; pgrep -f -- "$RUN_ROOT/campaign-$stamp/") 2>/dev/null | grep -vx "$$" || true)"
if [ -n "$leftovers" ]; then
  for pid in $leftovers; do kill -KILL "$pid" 2>/dev/null || true; done
  die "processes of this run were still running after the controller exited and were killed: $(echo $leftovers)"
fi
finished=false
if [ -f "$client_home/exit-code" ]; then
  finished=true
  rm -f "$client_home/exit-code"
fi
rm -f "$client_home/hotpath-e2e.jar"
for c in "${CLIENTS[@]}"; do rm -f "$client_home/hotpath-e2e-$c.jar"; done
rmdir "$client_home/tmp" "$client_home/logs" "$client_home" 2>/dev/null || true

if [ -n "$interrupted" ]; then
  echo "hotpath: error: interrupted by $interrupted; the cluster was stopped (runs under $RUN_ROOT/$stamp-*)" >&2
  exit 130
fi
if ! $finished; then
  echo "hotpath: error: the smoke controller JVM ended without finishing (exit $rc; killed?); none of its processes is left (runs under $RUN_ROOT/$stamp-*)" >&2
  exit 1
fi
exit "$rc"
