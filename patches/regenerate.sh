#!/usr/bin/env bash
# Regenerates the patches that are generated from our modules, so that a patch and the module it
# carries can never drift (broker-dist's CodecPatchFreshnessTest fails on a stale patch):
#
#   4.9.0/0001-common-message-properties-codec.patch   <- hotpath-codec/src/main/java/io/hotpath/codec
#                                                         + rocketmq-common 4.9.0 -sources jar (Maven Central)
#   4.9.0/0002-broker-send-header-direct-decode.patch  <- hotpath-codec/src/main/java/io/hotpath/codec/header
#                                                         + rocketmq-broker 4.9.0 -sources jar (Maven Central)
#   4.9.0/0003-store-trim-persisted-properties.patch   <- hotpath-store/src/main/java/io/hotpath/store
#                                                         + rocketmq-store and -broker 4.9.0 -sources jars
#
# The commit message of an existing patch (From/Date/Subject/Motivation/Modification/Result) is kept;
# only the diffstat and diff are rebuilt. Writes nothing but the patch and broker-dist/target/.
#
# usage: patches/regenerate.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export HOTPATH_ROOT="$ROOT"
# shellcheck source=../bin/lib/common.sh
source "$ROOT/bin/lib/common.sh"

case "${1:-}" in
  "") ;;
  -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) die "unknown option '$1' (usage: patches/regenerate.sh)" ;;
esac
require_jdk17
require_mvn
command -v git >/dev/null 2>&1 || die "git not found on PATH (the patch is produced with git format-patch)"

version=4.9.0
target="$ROOT/broker-dist/target"
sources_jar() { # module -> path of its -sources jar, fetched from Maven Central if missing
  local jar="$target/upstream-sources-jars/rocketmq-$1-$version-sources.jar"
  if [ ! -f "$jar" ]; then
    info "fetching rocketmq-$1 $version -sources jar from Maven Central"
    # -N: the root pom only (its pluginManagement pins maven-dependency-plugin)
    mvn_root -q -N dependency:copy "-Dartifact=org.apache.rocketmq:rocketmq-$1:$version:jar:sources" \
      "-DoutputDirectory=$target/upstream-sources-jars" >/dev/null \
      || die "could not fetch rocketmq-$1 $version -sources jar (see Maven output above)"
  fi
  printf '%s\n' "$jar"
}
common_sources_jar="$(sources_jar common)"
broker_sources_jar="$(sources_jar broker)"
store_sources_jar="$(sources_jar store)"

# the generator is plain JDK code: compile broker-dist's tool sources into target/, no Maven needed
classes="$target/regenerate-classes"
rm -rf "$classes"
mkdir -p "$classes"
javac -d "$classes" $(find "$ROOT/broker-dist/src/main/java" -name '*.java') \
  || die "could not compile broker-dist's generator"
java -cp "$classes" io.hotpath.dist.CodecPatchGenerator \
  --sources-jar "$common_sources_jar" \
  --codec-sources "$ROOT/hotpath-codec/src/main/java" \
  --patch "$ROOT/patches/$version/0001-common-message-properties-codec.patch" \
  --work "$target/patch-work"
java -cp "$classes" io.hotpath.dist.SendHeaderPatchGenerator \
  --sources-jar "$broker_sources_jar" \
  --codec-sources "$ROOT/hotpath-codec/src/main/java" \
  --patch "$ROOT/patches/$version/0002-broker-send-header-direct-decode.patch" \
  --work "$target/patch-work"
java -cp "$classes" io.hotpath.dist.StorePatchGenerator \
  --store-sources-jar "$store_sources_jar" \
  --broker-sources-jar "$broker_sources_jar" \
  --store-sources "$ROOT/hotpath-store/src/main/java" \
  --patch "$ROOT/patches/$version/0003-store-trim-persisted-properties.patch" \
  --work "$target/patch-work"
