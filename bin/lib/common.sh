# Shared helpers for bin/lib/*.sh. Sourced, never run.

# One clear line on stderr and a non-zero exit: what operators see instead of a stack trace.
die() {
  echo "hotpath: error: $*" >&2
  exit 2
}

info() {
  echo "hotpath: $*" >&2
}

# Fails unless the JDK on PATH (or JAVA_HOME) is 17 or newer.
require_jdk17() {
  local java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  command -v "$java" >/dev/null 2>&1 || die "no java found (set JAVA_HOME or put JDK 17+ on PATH)"
  local v
  v=$("$java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
  case "$v" in
    1.*|9|10|11|12|13|14|15|16) die "JDK 17 or newer needed, found java.specification.version=$v" ;;
  esac
}

require_mvn() {
  command -v mvn >/dev/null 2>&1 || die "Maven (mvn) not found on PATH"
}

# Runs Maven from the project root in batch mode with the given arguments.
mvn_root() {
  (cd "$HOTPATH_ROOT" && mvn -B "$@")
}
