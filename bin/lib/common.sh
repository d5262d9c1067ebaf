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

# The release line to use: $1 when patches/$1/line.properties exists, the newest line (numeric order,
# sort -V) when $1 is empty; dies on an unknown line, naming the known ones. The Java side has the same
# rule in io.hotpath.e2e.cluster.ReleaseLines; scripts pass the line they chose on with --line.
release_line() {
  local requested="${1:-}" known
  known="$(cd "$HOTPATH_ROOT/patches" 2>/dev/null && for d in */; do d="${d%/}"; [ -f "$d/line.properties" ] && echo "$d"; done | grep -E '^[0-9]+(\.[0-9]+)*$' | sort -V || true)"
  [ -n "$known" ] || die "no release line in $HOTPATH_ROOT/patches (a line is patches/<release>/line.properties with release=<release>)"
  if [ -z "$requested" ]; then
    echo "$known" | tail -n 1
  elif echo "$known" | grep -qxF -- "$requested"; then
    echo "$requested"
  else
    die "unknown release line '$requested'; known lines: $(echo $known | sed 's/ /, /g') (patches/<release>/line.properties)"
  fi
}
