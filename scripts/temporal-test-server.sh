#!/usr/bin/env bash
# Prints the path of an executable that starts Temporal's time-skipping test server (the one the
# workflow tests of test/workflows/ run against, docs/testing.md), installing it when missing.
#
# `TestWorkflowEnvironment.createTimeSkipping()` would download a test-server binary at run time,
# which fails offline. The server is Java (`io.temporal:temporal-test-server` on Maven Central), so
# this resolves the pinned artifact and its runtime classpath with Maven into
# $ROOT/.tools/temporal-test-server-<version>/ and writes a launcher there that takes exactly the
# arguments the SDK gives an `existing-path` test server: `<port> [--enable-time-skipping]`. The
# launcher's main class (scripts/temporal-test-server/LoopbackTestServer.java) is TestServer's main
# bound to 127.0.0.1 instead of every interface.
#
# The SDK gives the server 5 s to answer; a cold JVM on a busy two-core machine takes longer, so the
# install records a class-data-sharing archive of a training start, which the launcher maps (a start
# then takes a second or two). The archive belongs to the JVM that made it: the launcher names that
# JVM by its full path.
#
# Needs: java and javac (11 or newer) and mvn, on PATH or $JAVA_HOME/bin, and Maven Central (or a
# mirror in ~/.m2/settings.xml) the first time only; later runs reuse the folder and need no network.
#
# SVC_SKIP_INSTALL=1: use the folder when it holds the pinned version, fail rather than install.
#
# Usage: bash scripts/temporal-test-server.sh          -> prints the path on stdout, progress on stderr
#        source scripts/temporal-test-server.sh; svc_temporal_test_server
set -euo pipefail

# shellcheck source=lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

# The pinned release. Moving it is a deliberate change: the test server's behaviour is what the
# workflow tests assert against.
SVC_TEMPORAL_TEST_SERVER_VERSION=1.31.0
# Keeps the server's logging library quiet (without a binding it prints a warning on every start).
SVC_SLF4J_NOP_VERSION=1.7.36

# The physical path: worktrees may share one .tools through a symlink, and the launcher and the
# archive name the classpath by absolute paths, which must not lead through one worktree.
svc__tts_dir() {
  mkdir -p "$SVC_ROOT/.tools"
  printf '%s\n' "$(cd -P "$SVC_ROOT/.tools" && pwd)/temporal-test-server-$SVC_TEMPORAL_TEST_SERVER_VERSION"
}

# Installed means the stamp the install writes last is there and names this version, and the
# launcher and the JVM it names are still executable; a folder left half-made lacks the stamp.
svc__tts_is_pinned() {
  local dir java
  dir="$(svc__tts_dir)"
  [[ -x "$dir/temporal-test-server" ]] &&
    [[ "$(cat "$dir/installed" 2>/dev/null)" == "$SVC_TEMPORAL_TEST_SERVER_VERSION" ]] &&
    java="$(cat "$dir/java" 2>/dev/null)" && [[ -x "$java" ]]
}

svc__tts_find() {
  local tool="$1"
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/$tool" ]]; then
    readlink -f "$JAVA_HOME/bin/$tool"
  elif command -v "$tool" >/dev/null 2>&1; then
    readlink -f "$(command -v "$tool")"
  else
    return 1
  fi
}

svc__tts_install() {
  local dir java javac mvn classpath port pid i
  dir="$(svc__tts_dir)"
  java="$(svc__tts_find java)" || svc_die "java (11 or newer) is needed to run Temporal's test server; set JAVA_HOME"
  javac="$(svc__tts_find javac)" || svc_die "javac (a JDK, 11 or newer) is needed to build the test server's launcher; set JAVA_HOME"
  mvn="$(command -v mvn)" || svc_die "mvn (Maven) is needed to resolve io.temporal:temporal-test-server:$SVC_TEMPORAL_TEST_SERVER_VERSION"

  # The archive records the classpath's absolute paths, so everything is built where it will stay.
  rm -rf "$dir"
  mkdir -p "$dir/lib" "$dir/classes"
  cat >"$dir/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>svc.tools</groupId>
  <artifactId>temporal-test-server-classpath</artifactId>
  <version>$SVC_TEMPORAL_TEST_SERVER_VERSION</version>
  <dependencies>
    <dependency>
      <groupId>io.temporal</groupId>
      <artifactId>temporal-test-server</artifactId>
      <version>$SVC_TEMPORAL_TEST_SERVER_VERSION</version>
    </dependency>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-nop</artifactId>
      <version>$SVC_SLF4J_NOP_VERSION</version>
    </dependency>
  </dependencies>
</project>
EOF
  svc_log "resolving io.temporal:temporal-test-server:$SVC_TEMPORAL_TEST_SERVER_VERSION and its runtime classpath with Maven"
  "$mvn" -q -B -Dstyle.color=never -f "$dir/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
    -DoutputDirectory="$dir/lib" >&2 ||
    svc_die "Maven could not resolve io.temporal:temporal-test-server:$SVC_TEMPORAL_TEST_SERVER_VERSION (offline, and not in ~/.m2 yet?)"
  [[ -f "$dir/lib/temporal-test-server-$SVC_TEMPORAL_TEST_SERVER_VERSION.jar" ]] ||
    svc_die "Maven finished but temporal-test-server-$SVC_TEMPORAL_TEST_SERVER_VERSION.jar is not in $dir/lib"

  classpath="$(find "$dir/lib" -name '*.jar' | sort | tr '\n' ':')"
  classpath="${classpath%:}"
  "$javac" -nowarn --release 11 -d "$dir/classes" -cp "$classpath" \
    "$SVC_ROOT/scripts/temporal-test-server/LoopbackTestServer.java" >&2 ||
    svc_die "javac could not build the test server's launcher"
  # Class-data sharing reads classes from jars only, so the launcher's one class goes into one.
  (cd "$dir/classes" && "$(dirname "$javac")/jar" cf "$dir/launcher.jar" LoopbackTestServer.class) ||
    svc_die "jar could not package the launcher"
  classpath="$dir/launcher.jar:$classpath"
  printf '%s\n' "$java" >"$dir/java"

  # -XX:TieredStopAtLevel=1 and the serial collector: a test server lives for one test file, so a
  # quick start matters more than peak speed.
  cat >"$dir/temporal-test-server" <<EOF
#!/bin/sh
# Written by scripts/temporal-test-server.sh: Temporal's test server $SVC_TEMPORAL_TEST_SERVER_VERSION on 127.0.0.1.
# Usage: temporal-test-server <port> [--enable-time-skipping]
exec "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto -XX:SharedArchiveFile="$dir/classes.jsa" \\
  -Xlog:cds=off -Xlog:cds+dynamic=off -cp "$classpath" LoopbackTestServer "\$@"
EOF
  chmod 0755 "$dir/temporal-test-server"

  # The training start: run until the server answers, then stop it; the JVM writes the archive of
  # every class it loaded as it exits. Without the archive the launcher still works, only slower.
  port="$(svc_find_free_port 47300)" || svc_die "no free port to train the test server's start on"
  svc_log "recording the test server's class-data-sharing archive (one start on 127.0.0.1:$port)"
  "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:ArchiveClassesAtExit="$dir/classes.jsa" \
    -Xlog:cds=off -Xlog:cds+dynamic=off -cp "$classpath" LoopbackTestServer "$port" >/dev/null 2>&1 &
  pid=$!
  for ((i = 0; i < 1200; i++)); do
    svc_port_in_use "$port" && break
    svc_pid_alive "$pid" || break
    sleep 0.05
  done
  svc_port_in_use "$port" || svc_log "the training start did not answer on 127.0.0.1:$port; the launcher runs without the archive"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true

  printf '%s\n' "$SVC_TEMPORAL_TEST_SERVER_VERSION" >"$dir/installed"
  svc_log "installed Temporal's test server $SVC_TEMPORAL_TEST_SERVER_VERSION: $dir/temporal-test-server"
}

svc_temporal_test_server() {
  local SVC_LOG_TAG=temporal-test-server dir
  dir="$(svc__tts_dir)"
  if svc__tts_is_pinned; then
    printf '%s\n' "$dir/temporal-test-server"
    return 0
  fi
  if [[ "${SVC_SKIP_INSTALL:-0}" == 1 ]]; then
    svc_die "Temporal's test server $SVC_TEMPORAL_TEST_SERVER_VERSION is not in $dir and SVC_SKIP_INSTALL=1 forbids installing it (run bash scripts/temporal-test-server.sh once)"
  fi
  # Two runs starting at once must not build into the same folder together; the one that waits
  # looks again once it holds the lock, since the other may have finished the work.
  mkdir -p "$SVC_ROOT/.tools"
  exec 7>"$SVC_ROOT/.tools/.temporal-test-server.lock"
  if ! flock -n 7; then
    svc_log "another process is installing Temporal's test server; waiting for it..."
    flock 7
  fi
  svc__tts_is_pinned || svc__tts_install
  exec 7>&-
  printf '%s\n' "$dir/temporal-test-server"
}

# Executed (not sourced): print the path.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  svc_temporal_test_server
fi
