#!/usr/bin/env bash
# Installs Apache JMeter 5.6.3 into ~/.cache/loadplane/jmeter/5.6.3 for the jmeter plugin, assembled from its Maven
# Central artifacts as the jmeter-maven-plugin does (the binary zip is not on Maven Central): the ApacheJMeter_*
# component jars go to lib/ext, their transitive dependencies (resolved by `mvn dependency:copy-dependencies` on a
# generated pom) to lib, ApacheJMeter_config's bin/ (jmeter.properties, saveservice.properties, log4j2.xml...) to bin,
# and the launcher jar to bin/ApacheJMeter.jar, started by a small bin/jmeter script. Then Loadplane's metrics listener
# (scripts/engines/jmeter/ and the shared scripts/engines/jvm-metrics/, compiled with javac) goes to
# lib/ext/loadplane-metrics.jar with a marker file the agent reads. Needs a JDK 17+ and mvn.
# Idempotent (a changed listener is rebuilt, JMeter kept); run through scripts/install-engines (or alone:
# bash scripts/engines/jmeter.sh).
set -euo pipefail

JMETER_VERSION=5.6.3
: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
HOME_DIR="$HOME/.cache/loadplane/jmeter/$JMETER_VERSION"
MARKER="$HOME_DIR/version"
ENGINES="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LISTENER_SOURCES=("$ENGINES"/jvm-metrics/loadplane/metrics/*.java "$ENGINES"/jmeter/loadplane/jmeter/*.java)
LISTENER_MARKER="$HOME_DIR/lib/ext/loadplane-metrics.version"
listener_stamp="loadplane-metrics $(cat "${LISTENER_SOURCES[@]}" | sha256sum | cut -c1-16)"

# Compiles the listener against this JMeter's jars into lib/ext; the marker is written last, so it names a whole jar.
build_listener() {
  command -v javac >/dev/null 2>&1 && command -v jar >/dev/null 2>&1 || { echo "jmeter: cannot build Loadplane's listener: javac and jar (a JDK 17+) are needed" >&2; exit 1; }
  local classes
  classes=$(mktemp -d)
  rm -f "$LISTENER_MARKER"
  javac -nowarn -Xlint:none --release 17 -d "$classes" -cp "$HOME_DIR/lib/*:$HOME_DIR/lib/ext/*" "${LISTENER_SOURCES[@]}" >&2 \
    || { rm -rf "$classes"; echo "jmeter: Loadplane's listener does not compile" >&2; exit 1; }
  jar cf "$HOME_DIR/lib/ext/loadplane-metrics.jar" -C "$classes" .
  rm -rf "$classes"
  echo "$listener_stamp" >"$LISTENER_MARKER"
}

if [ -x "$HOME_DIR/bin/jmeter" ] && [ "$(cat "$MARKER" 2>/dev/null)" = "$JMETER_VERSION" ]; then
  if [ "$(cat "$LISTENER_MARKER" 2>/dev/null)" != "$listener_stamp" ]; then
    build_listener
    echo "jmeter: $JMETER_VERSION at $HOME_DIR/bin/jmeter (listener rebuilt)"
  else
    echo "jmeter: $JMETER_VERSION at $HOME_DIR/bin/jmeter"
  fi
  exit 0
fi

command -v java >/dev/null 2>&1 || { echo "jmeter: cannot install $JMETER_VERSION: java (17+) is not installed" >&2; exit 1; }
command -v mvn >/dev/null 2>&1 || { echo "jmeter: cannot install $JMETER_VERSION: mvn is not installed" >&2; exit 1; }
java_major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
[ "${java_major:-0}" -ge 17 ] || { echo "jmeter: JMeter $JMETER_VERSION here needs java 17+, found ${java_major:-none}" >&2; exit 1; }

start=$SECONDS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
components=(ApacheJMeter_core ApacheJMeter_http ApacheJMeter_components ApacheJMeter_functions)
{
  echo '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
  echo '<groupId>loadplane</groupId><artifactId>jmeter-assembly</artifactId><version>1</version><packaging>pom</packaging><dependencies>'
  for artifact in "${components[@]}" ApacheJMeter_config ApacheJMeter jorphan; do
    echo "<dependency><groupId>org.apache.jmeter</groupId><artifactId>$artifact</artifactId><version>$JMETER_VERSION</version></dependency>"
  done
  echo '</dependencies></project>'
} >"$work/pom.xml"

for attempt in 1 2 3; do
  if mvn -B -q -f "$work/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$work/deps" >"$work/mvn.log" 2>&1; then break; fi
  [ "$attempt" -lt 3 ] || { echo "jmeter: resolving the Maven Central artifacts failed: $(tail -n 5 "$work/mvn.log")" >&2; exit 1; }
  sleep $((attempt * 5))
done

# Assemble beside the final place, then swap it in: a half-built tree is never what the agent finds.
staging="$HOME_DIR.partial"
rm -rf "$staging"
mkdir -p "$staging/lib/ext" "$staging/lib/junit" "$staging/bin" # lib/junit: the launcher warns when it is missing
(cd "$staging" && unzip -q -o "$work/deps/ApacheJMeter_config-$JMETER_VERSION.jar" 'bin/*')
mv "$work/deps/ApacheJMeter-$JMETER_VERSION.jar" "$staging/bin/ApacheJMeter.jar"
rm "$work/deps/ApacheJMeter_config-$JMETER_VERSION.jar"
for artifact in "${components[@]}"; do mv "$work/deps/$artifact-$JMETER_VERSION.jar" "$staging/lib/ext/"; done
mv "$work/deps/"*.jar "$staging/lib/"
cat >"$staging/bin/jmeter" <<'LAUNCHER'
#!/bin/sh
# Starts JMeter (non-GUI use: the loadplane agent passes -n). JMETER_HOME is this script's parent directory; the launcher
# jar finds lib/ and lib/ext/ from its own place. JVM_ARGS replaces the default heap settings.
bin=$(cd "$(dirname "$0")" && pwd)
java=java
[ -n "${JAVA_HOME:-}" ] && java="$JAVA_HOME/bin/java"
# shellcheck disable=SC2086 # JVM_ARGS is a list of options
exec "$java" ${JVM_ARGS:--Xms256m -Xmx1g -XX:+UseG1GC -XX:MaxGCPauseMillis=100} -Djava.awt.headless=true \
  -Djava.security.egd=file:/dev/urandom -Duser.language=en -Duser.region=EN -jar "$bin/ApacheJMeter.jar" "$@"
LAUNCHER
chmod +x "$staging/bin/jmeter"
echo "$JMETER_VERSION" >"$staging/version"
rm -rf "$HOME_DIR"
mv "$staging" "$HOME_DIR"
build_listener
"$HOME_DIR/bin/jmeter" --version 2>&1 | grep -q "$JMETER_VERSION" || { echo "jmeter: the assembled JMeter does not report $JMETER_VERSION" >&2; exit 1; }
echo "jmeter: $JMETER_VERSION at $HOME_DIR/bin/jmeter (assembled in $((SECONDS - start))s)"
