# bin/hotpath profile: async-profiler flame graphs of JMH benchmarks, a live JVM, or both masters of a
# 2m-2s smoke, and the stock-vs-patched summary. The Java side (io.hotpath.profiling.ProfileCommand)
# parses the options and does the work; this script builds the profiling module when needed.
set -euo pipefail
source "$HOTPATH_ROOT/bin/lib/common.sh"

MODULE="$HOTPATH_ROOT/profiling"
MAIN=io.hotpath.profiling.ProfileCommand

require_jdk17
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# Build the module when it was never built or is older than its sources or e2e's (it reads e2e's run
# record and release lines): the jar, its runtime classpath file (which names e2e/target/hotpath-e2e.jar)
# and the unpacked libasyncProfiler.so all come from `mvn -pl e2e,profiling package`; nothing is installed.
jar="$MODULE/target/hotpath-profiling-0.1.0-SNAPSHOT.jar"
lib="$MODULE/target/async-profiler/linux-x64/libasyncProfiler.so"
E2E="$HOTPATH_ROOT/e2e"
if [ ! -f "$jar" ] || [ ! -f "$MODULE/target/runtime-classpath.txt" ] || [ ! -f "$lib" ] || [ ! -f "$E2E/target/hotpath-e2e.jar" ] \
   || [ -n "$(find "$MODULE/src/main" "$MODULE/pom.xml" "$E2E/src/main" "$E2E/pom.xml" -newer "$jar" -print -quit)" ]; then
  require_mvn
  info "building the profiling module (mvn -pl e2e,profiling package -DskipTests)"
  mvn_root -q -pl e2e,profiling package -DskipTests >&2 || die "building the profiling module failed (see the Maven output above)"
fi

mkdir -p "$MODULE/target/tmp"
# exec: the JVM receives Ctrl-C itself and stops, by PID, whatever it started (JMH, the smoke)
# and any profiler it left running. -XX:-UsePerfData keeps its perf data out of /tmp.
exec "$java_bin" -Xmx512m -XX:-UsePerfData "-Djava.io.tmpdir=$MODULE/target/tmp" \
  "-Dhotpath.root=$HOTPATH_ROOT" "-Dhotpath.profiler.lib=$lib" \
  -cp "$jar:$(cat "$MODULE/target/runtime-classpath.txt")" "$MAIN" "$@"
