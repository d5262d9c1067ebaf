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

# Release lines: a folder patches/<release>/ with a line.properties descriptor. Prints every line,
# oldest first (numeric version order: 4.9.10 after 4.9.8).
known_lines() {
  local d
  for d in "$HOTPATH_ROOT"/patches/*/line.properties; do
    [ -f "$d" ] || continue
    basename "$(dirname "$d")"
  done | sort -t. -k1,1n -k2,2n -k3,3n | tr '\n' ' ' | sed 's/ $//'
}

# The newest complete line: what a command that needs one line builds or runs when none is named. A partial
# line (complete=false in its descriptor) is built and tested, never the default. The Java side tools have
# the same rule in io.hotpath.lines.ReleaseLine (module release-lines).
newest_line() {
  local all line newest=""
  all=$(known_lines)
  [ -n "$all" ] || die "no release line under $HOTPATH_ROOT/patches (no */line.properties)"
  for line in $all; do
    grep -q '^complete=false$' "$HOTPATH_ROOT/patches/$line/line.properties" || newest="$line"
  done
  [ -n "$newest" ] || die "no complete release line under $HOTPATH_ROOT/patches (every line says complete=false)"
  echo "$newest"
}

# Echoes the release if patches/<release>/line.properties exists; else one clear error.
require_line() {
  [ -f "$HOTPATH_ROOT/patches/$1/line.properties" ] || die "unknown release line '$1' (lines: $(known_lines))"
  echo "$1"
}

# $1 if it names a line, the newest line if $1 is empty; else one clear error.
release_line() {
  if [ -z "${1:-}" ]; then newest_line; else require_line "$1"; fi
}

# A key of a line's descriptor (key=value lines).
line_property() {
  local value
  value=$(sed -n "s/^$2=//p" "$HOTPATH_ROOT/patches/$1/line.properties" | head -n 1)
  [ -n "$value" ] || die "patches/$1/line.properties has no $2"
  echo "$value"
}

# Builds one line's broker distributions (module broker-dist and what it needs, -am) with Maven;
# extra arguments go to Maven. Nothing is installed: reactor resolution only (`verify`), so neither our
# artifacts nor upstream's patched jars land in ~/.m2.
build_line() {
  local line="$1" flavor="$2" upstream_tests="$3"
  shift 3
  mvn_root -pl broker-dist -am verify "-Dhotpath.line=$line" "-Dhotpath.flavor=$flavor" \
    "-Dhotpath.upstream.tests=$upstream_tests" "$@"
}

# The unshare command that gives a cluster run (bin/lib/smoke.sh) a private network namespace whose only interface is
# loopback and a PID namespace of its own, printed on one line; $1 is the run's --net mode (loopback, realistic).
# Root, or a user with CAP_SYS_ADMIN: `unshare --net --pid --fork --mount-proc --kill-child`. Any other user: the same in
# a user namespace of their own (`--user --map-root-user`) where the kernel allows unprivileged user namespaces, loopback
# only: --net realistic's per-server namespaces, veth links and tc shaping have not been run end to end in one.
# Each candidate is tried once (bring up lo) before any server starts; one clear error when none works.
private_netns_unshare() {
  local net="${1:-loopback}" plain=(--net --pid --fork --mount-proc --kill-child) why userns_why
  command -v unshare >/dev/null 2>&1 || die "unshare (util-linux) not found: it is needed for a private network namespace; pass --no-netns to run on the host network (brokers then listen on all interfaces)"
  command -v ip >/dev/null 2>&1 || die "ip (iproute2) not found: it is needed to bring up loopback in the private network namespace; pass --no-netns to run on the host network (brokers then listen on all interfaces)"
  if why="$(unshare "${plain[@]}" ip link set lo up 2>&1)"; then
    echo "unshare ${plain[*]}"
    return 0
  fi
  why="${why%%$'\n'*}"
  why="${why#unshare: }"
  if [ "$(id -u)" != 0 ]; then
    if userns_why="$(unshare --user --map-root-user "${plain[@]}" ip link set lo up 2>&1)"; then
      [ "${net,,}" != realistic ] || die "--net realistic needs root or CAP_SYS_ADMIN (without them the run gets a user namespace, where its per-server namespaces, veth links and tc shaping are not verified); run it as root, or with --net loopback"
      info "no CAP_SYS_ADMIN: the cluster runs in a user namespace of its own (unshare --user --map-root-user)"
      echo "unshare --user --map-root-user ${plain[*]}"
      return 0
    fi
    userns_why="${userns_why%%$'\n'*}"
    why="$why; with --user --map-root-user: ${userns_why#unshare: }"
  fi
  die "cannot create a private network namespace ($why): run as root, with CAP_SYS_ADMIN, or where unprivileged user namespaces are enabled (sysctl kernel.unprivileged_userns_clone / user.max_user_namespaces); or pass --no-netns to run on the host network instead (brokers then listen on all interfaces)"
}

# The frame names of an async-profiler flame graph HTML: its cpool stores each name as one character (the length of the
# prefix it shares with the name before it, plus 32) and the rest, so a package can appear nowhere spelled out
# (2026-11-26: a run's first broker frames read "4broker/..." and "4store/...", '4' = 20 + 32 for "org/apache/rocketmq/").
flame_frames() {
  awk 'BEGIN { for (i = 32; i < 127; i++) code[sprintf("%c", i)] = i }
       /^const cpool = \[/ { on = 1; next }
       on && /^\];/ { exit }
       on { e = $0; sub(/^'"'"'/, "", e); sub(/'"'"',?$/, "", e)
            name = substr(prev, 1, code[substr(e, 1, 1)] - 32) substr(e, 2); print name; prev = name }' "$1"
}

# fails unless every listed file exists, is non-empty and contains the pattern (grep -E); a flame graph HTML's frame
# names are decoded first
expect_frames() {
  local pattern="$1"; shift
  local f frames
  for f in "$@"; do
    [ -s "$f" ] || die "expected a non-empty profile at $f"
    case "$f" in
      # decoded whole first: grep -q would stop reading early, and pipefail would take awk's SIGPIPE for a failure
      *.html) frames=$(flame_frames "$f"); grep -Eq "$pattern" <<< "$frames" || die "flame graph $f has no frame matching '$pattern'" ;;
      *) grep -Eq "$pattern" "$f" || die "profile $f has no frame matching '$pattern'" ;;
    esac
  done
}
