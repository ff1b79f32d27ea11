#!/usr/bin/env bash
# Installs Gatling 3.13.5 for the agent into ~/.cache/loadplane/gatling/3.13.5: its resolved classpath from Maven Central
# (`mvn dependency:copy-dependencies` on a generated pom naming io.gatling.highcharts:gatling-charts-highcharts, plus the
# Scala compiler of Gatling's Scala version for Scala simulations; the bundle zip is not on Maven Central), Loadplane's
# launcher (scripts/engines/gatling/ with the shared scripts/engines/jvm-metrics/, compiled with javac and scalac against that classpath) and bin/gatling, the
# command the agent runs. Needs a JDK 11+ (javac) and Maven.
# Idempotent; run through scripts/install-engines (or alone: bash scripts/engines/gatling.sh). Prints one line.
set -euo pipefail

GATLING_VERSION=3.13.5
# Gatling 3.13.5's scala-library; scalac and scala-reflect must match it.
SCALA_VERSION=2.13.16
: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
SOURCES="$(cd "$(dirname "${BASH_SOURCE[0]}")/gatling" && pwd)"
# The latency counter the JVM engines share (JMeter's listener uses it too).
SHARED="$(cd "$(dirname "${BASH_SOURCE[0]}")/jvm-metrics" && pwd)"
ROOT="$HOME/.cache/loadplane/gatling/$GATLING_VERSION"
BIN="$ROOT/bin/gatling"

# The launcher's sources are part of the install: a changed launcher is rebuilt, the jars are kept.
stamp="$GATLING_VERSION $SCALA_VERSION $(cat "$SOURCES"/logback.xml "$SOURCES"/loadplane/gatling/*.java "$SHARED"/loadplane/metrics/*.java "$SOURCES"/loadplane/gatling/scaladsl/*.scala | sha256sum | cut -c1-16)"
if [ -x "$BIN" ] && [ -f "$ROOT/bin/gatling.version" ] && [ "$(cat "$ROOT/installed" 2>/dev/null)" = "$stamp" ]; then
  echo "gatling: $GATLING_VERSION at $BIN"
  exit 0
fi

for tool in java javac mvn; do
  command -v "$tool" >/dev/null 2>&1 || { echo "gatling: cannot install $GATLING_VERSION: $tool is not installed (a JDK 11+ and Maven are needed)" >&2; exit 1; }
done
start=$SECONDS
mkdir -p "$ROOT"
if [ "$(cat "$ROOT/lib/.resolved" 2>/dev/null)" != "$GATLING_VERSION $SCALA_VERSION" ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>loadplane</groupId>
  <artifactId>gatling-engine</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>io.gatling.highcharts</groupId>
      <artifactId>gatling-charts-highcharts</artifactId>
      <version>$GATLING_VERSION</version>
    </dependency>
    <dependency>
      <groupId>org.scala-lang</groupId>
      <artifactId>scala-compiler</artifactId>
      <version>$SCALA_VERSION</version>
    </dependency>
    <dependency>
      <groupId>org.scala-lang</groupId>
      <artifactId>scala-reflect</artifactId>
      <version>$SCALA_VERSION</version>
    </dependency>
  </dependencies>
</project>
POM
  # A private local repository: nothing shared with other Maven builds on this machine, deleted with $work.
  for attempt in 1 2 3; do
    if mvn -B -q -f "$work/pom.xml" -Dmaven.repo.local="$work/m2" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$work/lib" >"$work/mvn.log" 2>&1; then break; fi
    [ "$attempt" -lt 3 ] || { echo "gatling: mvn dependency:copy-dependencies failed:" >&2; tail -n 20 "$work/mvn.log" >&2; exit 1; }
    sleep $((attempt * 5))
  done
  echo "$GATLING_VERSION $SCALA_VERSION" > "$work/lib/.resolved"
  rm -rf "$ROOT/lib" && mv "$work/lib" "$ROOT/lib"
fi

rm -rf "$ROOT/launcher" && mkdir -p "$ROOT/launcher" "$ROOT/bin"
javac -nowarn -Xlint:none -d "$ROOT/launcher" -cp "$ROOT/lib/*" "$SOURCES"/loadplane/gatling/*.java "$SHARED"/loadplane/metrics/*.java 2>&1 | grep -v '^Note:' >&2 || true
[ -f "$ROOT/launcher/loadplane/gatling/LoadplaneGatling.class" ] || { echo "gatling: the launcher does not compile" >&2; exit 1; }
# The Scala simulations' helper, with the Scala compiler the launcher also uses.
java -cp "$ROOT/launcher:$ROOT/lib/*" scala.tools.nsc.Main -usejavacp -nowarn -d "$ROOT/launcher" "$SOURCES"/loadplane/gatling/scaladsl/*.scala >&2
[ -f "$ROOT/launcher/loadplane/gatling/scaladsl/Loadplane.class" ] || { echo "gatling: the Scala helper does not compile" >&2; exit 1; }
cp "$SOURCES/logback.xml" "$ROOT/launcher/"
cat > "$BIN" <<'LAUNCHER'
#!/bin/sh
# Gatling under Loadplane: compiles the .java and .scala simulations of the first argument's directory, then runs Gatling with
# the other arguments (-s <class> -rf <dir> -nr). The working directory is on the class path (its gatling.conf too).
# JVM flags as Gatling's own bundle sets them; exec, so the JVM is the process the agent signals.
here="$(cd "$(dirname "$0")/.." && pwd)"
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -server -XX:+UseG1GC -XX:+ParallelRefProcEnabled -XX:MaxInlineLevel=20 -XX:MaxTrivialSize=12 \
  --add-opens=java.base/java.lang=ALL-UNNAMED -cp ".:$here/launcher:$here/lib/*" loadplane.gatling.LoadplaneGatling "$@"
LAUNCHER
chmod +x "$BIN"
version="$("$BIN" --version 2>&1 | head -n 1)"
[ "$version" = "gatling $GATLING_VERSION" ] || { echo "gatling: $BIN does not run: $version" >&2; exit 1; }
# The agent reads the version from here rather than starting a JVM for `gatling --version` at every agent start.
echo "$GATLING_VERSION" > "$ROOT/bin/gatling.version"
echo "$stamp" > "$ROOT/installed"
echo "gatling: $GATLING_VERSION at $BIN (installed in $((SECONDS - start))s)"
