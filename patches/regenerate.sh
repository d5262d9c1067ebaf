#!/usr/bin/env bash
# Regenerates a release line's patches from our modules and upstream's source release, so that a patch
# and the module code it carries can never drift (broker-dist's PatchFreshnessTest fails on a stale patch).
#
# One generator (io.hotpath.dist.PatchGenerator) for every line, driven by data:
#   patches/<release>/line.properties   carries.<patch>=<upstream module> <- <our module> : <files>
#   patches/<release>/NNNN-*.patch      the message and the edits of upstream files (kept as they are)
#   rocketmq-all-<release>-source-release.zip (Maven Central)   the upstream text every diff is made against
#
# Each patch is re-made on top of the ones before it, with the carried files copied from our modules; its
# message (From/Date/Subject/Motivation/Modification/Result) is kept. Writes nothing but the patch files and
# broker-dist/target/.
#
# usage: patches/regenerate.sh [--line <release>]   (default: every line under patches/)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export HOTPATH_ROOT="$ROOT"
# shellcheck source=../bin/lib/common.sh
source "$ROOT/bin/lib/common.sh"

lines=()
while [ $# -gt 0 ]; do
  case "$1" in
    --line) [ $# -ge 2 ] || die "--line needs a release, one of: $(known_lines)"; lines+=("$(require_line "$2")"); shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (usage: patches/regenerate.sh [--line <release>])" ;;
  esac
done
[ ${#lines[@]} -gt 0 ] || read -r -a lines <<< "$(known_lines)"
require_jdk17
require_mvn
command -v git >/dev/null 2>&1 || die "git not found on PATH (the patches are produced with git format-patch)"

target="$ROOT/broker-dist/target"
# the generator is plain JDK code: compile broker-dist's tools and the release-lines reader into target/
classes="$target/regenerate-classes"
rm -rf "$classes"
mkdir -p "$classes"
javac -d "$classes" $(find "$ROOT/broker-dist/src/main/java" "$ROOT/release-lines/src/main/java" -name '*.java') \
  || die "could not compile broker-dist's generator"
for line in "${lines[@]}"; do
  zip="$target/regenerate/rocketmq-all-$line-source-release.zip"
  if [ ! -f "$zip" ]; then
    info "fetching rocketmq-all $line source release from Maven Central"
    # -N: the root pom only (its pluginManagement pins maven-dependency-plugin)
    mvn_root -q -N dependency:copy "-Dartifact=$(line_property "$line" source.release)" \
      "-DoutputDirectory=$target/regenerate" >/dev/null \
      || die "could not fetch the rocketmq-all $line source release (see Maven output above)"
  fi
  java -cp "$classes" io.hotpath.dist.PatchGenerator --line "$ROOT/patches/$line" --source-release "$zip" \
    --project-root "$ROOT" --work "$target/regenerate/$line"
done
