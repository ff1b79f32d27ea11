#!/usr/bin/env bash
# Installs the Keycloak 26.7.3 distribution into ~/.cache/loadplane/keycloak/26.7.3 for the external-IdP integration
# test (tests/integration/keycloak.test.ts): the `keycloak-quarkus-dist` zip from Maven Central, fetched with Maven,
# unzipped once; nothing to do when it is already there. Keycloak 26 needs Java 21+: the script names the JDK the test will
# use (JAVA_HOME or /usr/lib/jvm/temurin-*) or warns. Installs unzip (and maven) with apt when missing, as root.
# Idempotent. Add to .ci/run before the tests:  bash .ci/install-keycloak.sh
set -euo pipefail

KEYCLOAK_VERSION=26.7.3
# Pinned so the first run does not depend on whichever plugin version the local Maven would pick.
DEPENDENCY_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1
: "${HOME:=$(getent passwd "$(id -un)" | cut -d: -f6)}"
CACHE_DIR="$HOME/.cache/loadplane/keycloak"
KEYCLOAK_HOME="$CACHE_DIR/$KEYCLOAK_VERSION"

# Keycloak 26 needs Java 21+; the default java here may be older. The test looks in the same places.
report_java() {
  local home
  for home in ${JAVA_HOME:-} /usr/lib/jvm/temurin-*-jdk*; do
    if [ -x "$home/bin/java" ] && [ "$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release" 2>/dev/null)" -ge 21 ] 2>/dev/null; then
      echo "keycloak: Java for it: $home"
      return
    fi
  done
  echo "keycloak: no JDK 21+ found (JAVA_HOME or /usr/lib/jvm/temurin-*): the Keycloak test cannot run" >&2
}

if [ -x "$KEYCLOAK_HOME/bin/kc.sh" ]; then
  echo "keycloak: $KEYCLOAK_VERSION at $KEYCLOAK_HOME"
  report_java
  exit 0
fi

apt_install() {
  if [ "$(id -u)" -ne 0 ]; then echo "keycloak: $1 is missing and only root can install it" >&2; exit 1; fi
  apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "$@" >/dev/null
}
command -v unzip >/dev/null 2>&1 || apt_install unzip
command -v mvn >/dev/null 2>&1 || apt_install maven

start=$SECONDS
echo "keycloak: fetching org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip with Maven (once)"
mkdir -p "$CACHE_DIR"
work=$(mktemp -d "$CACHE_DIR/.install.XXXXXX")
trap 'rm -rf "$work"' EXIT
for attempt in 1 2 3; do
  # The zip lands in $work (and in ~/.m2 for the next run); Maven's output only matters when it fails.
  # -U: Maven would otherwise remember a failed download and not try again on the retry.
  if mvn -B -q -U "$DEPENDENCY_PLUGIN:copy" -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" \
    -DoutputDirectory="$work" >"$work/mvn.log" 2>&1; then
    break
  fi
  [ "$attempt" -lt 3 ] || { tail -n 40 "$work/mvn.log" >&2; echo "keycloak: mvn could not fetch the distribution" >&2; exit 1; }
  echo "keycloak: mvn attempt $attempt failed; retrying"
  sleep $((attempt * 5))
done

# Unzip next to the target and rename at the end, so an interrupted run never leaves a half-filled cache.
unzip -q "$work/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip" -d "$work/unpacked"
[ -x "$work/unpacked/keycloak-$KEYCLOAK_VERSION/bin/kc.sh" ] || { echo "keycloak: zip has no keycloak-$KEYCLOAK_VERSION/bin/kc.sh" >&2; exit 1; }
rm -rf "$KEYCLOAK_HOME"
mv "$work/unpacked/keycloak-$KEYCLOAK_VERSION" "$KEYCLOAK_HOME"
echo "keycloak: $KEYCLOAK_VERSION at $KEYCLOAK_HOME (installed in $((SECONDS - start))s)"
report_java
