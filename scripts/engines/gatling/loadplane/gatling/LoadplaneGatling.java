/*
 * Loadplane's Gatling launcher: compiles the task's simulation (Java with the JDK's compiler, Scala with scalac), then
 * runs Gatling in this JVM as io.gatling.app.Gatling does, with one change: every response also goes to LatencyCounts,
 * which prints exact per-millisecond latency counts once a second on stdout. No simulation.log is written unless the simulation has
 * assertions (Gatling checks them from that file after the run).
 */
package loadplane.gatling;

import loadplane.metrics.LatencyCounts;
import io.gatling.app.RunResult;
import io.gatling.app.RunResultProcessor;
import io.gatling.app.Runner;
import io.gatling.app.cli.GatlingArgsParser;
import io.gatling.app.cli.StatusCode;
import io.gatling.commons.util.DefaultClock;
import io.gatling.core.actor.ActorSystem;
import io.gatling.core.cli.GatlingArgs;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.scenario.SimulationParams;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.stats.writer.RunMessage;
import io.gatling.netty.util.Transports;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import scala.util.Either;

public final class LoadplaneGatling {
  /** Exit code when the simulation does not compile (Gatling's own: 0 ok, 1 crash or bad arguments, 2 assertions failed). */
  public static final int COMPILATION_FAILED = 3;

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--idle")) {
      System.out.println("loadplane: this machine's share of the load is 0 users; Gatling not started");
      System.exit(0);
    }
    if (args.length > 0 && args[0].equals("--version")) {
      System.out.println("gatling " + io.gatling.commons.util.GatlingVersion.ThisVersion().fullVersion());
      System.exit(0);
    }
    // Leading -Dname=value arguments are system properties (the load config the simulation reads through Loadplane).
    int first = 0;
    while (first < args.length && args[first].startsWith("-D") && args[first].contains("=")) {
      String property = args[first++].substring(2);
      int equals = property.indexOf('=');
      System.setProperty(property.substring(0, equals), property.substring(equals + 1));
    }
    if (args.length - first < 1) {
      System.err.println("usage: gatling [-Dname=value ...] <source dir> [gatling options: -s <simulation class> -rf <results dir> -nr]");
      System.exit(1);
    }
    int compiled = compile(Paths.get(args[first]));
    if (compiled != 0) System.exit(COMPILATION_FAILED);
    System.exit(run(Arrays.copyOfRange(args, first + 1, args.length)));
  }

  /**
   * javac on every .java file in the directory, scalac (scala.tools.nsc, from the Scala compiler jars the install put
   * beside Gatling's) on every .scala file, into the same directory (which is on the class path).
   */
  static int compile(Path sourceDir) throws IOException {
    List<String> java = sources(sourceDir, "*.java");
    List<String> scalaSources = sources(sourceDir, "*.scala");
    if (!scalaSources.isEmpty()) {
      System.out.println("loadplane: compiling " + scalaSources.size() + " Scala simulation source(s)");
      List<String> options = new ArrayList<>(Arrays.asList("-usejavacp", "-d", sourceDir.toString(), "-nowarn", "-encoding", "UTF-8"));
      options.addAll(scalaSources);
      if (!scala.tools.nsc.Main.process(options.toArray(new String[0]))) {
        System.err.println("loadplane: the simulation does not compile");
        return 1;
      }
    }
    if (java.isEmpty()) return 0;
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      System.err.println("loadplane: no Java compiler in this Java runtime (" + System.getProperty("java.home") + "): Gatling's Java simulations need a JDK");
      return 1;
    }
    List<String> options = new ArrayList<>(Arrays.asList(
        "-d", sourceDir.toString(), "-cp", System.getProperty("java.class.path"), "-encoding", "UTF-8", "-nowarn", "-Xlint:none"));
    options.addAll(java);
    System.out.println("loadplane: compiling " + java.size() + " Java simulation source(s)");
    int status = javac.run(null, System.out, System.err, options.toArray(new String[0]));
    if (status != 0) System.err.println("loadplane: the simulation does not compile");
    return status;
  }

  private static List<String> sources(Path dir, String glob) throws IOException {
    List<String> files = new ArrayList<>();
    try (DirectoryStream<Path> found = Files.newDirectoryStream(dir, glob)) {
      for (Path file : found) files.add(file.toString());
    }
    return files;
  }

  static int run(String[] args) {
    Either<GatlingArgs, StatusCode> parsed = new GatlingArgsParser(args).parseArguments();
    if (parsed.isRight()) return parsed.toOption().get().code();
    GatlingArgs gatlingArgs = parsed.left().get();
    // Gatling's workaround for a deadlock (github.com/gatling/gatling/issues/3411).
    FileSystems.getDefault();
    GatlingConfiguration configuration = GatlingConfiguration.load();
    LatencyCounts counts = new LatencyCounts(System.out);
    ActorSystem system = new ActorSystem();
    EventLoopGroup eventLoopGroup = Transports.newEventLoopGroup(configuration.netty().useNativeTransport(), configuration.netty().useIoUring(), 0, "gatling");
    RunResult result;
    counts.start();
    // A cancelled run ends with SIGTERM: what was counted since the last tick is still printed on the way out.
    Runtime.getRuntime().addShutdownHook(new Thread(counts::stop, "loadplane-metrics-flush"));
    try {
      Runner runner = new Runner(system, eventLoopGroup, new DefaultClock(), gatlingArgs, configuration) {
        @Override
        public StatsEngine newStatsEngine(SimulationParams params, RunMessage runMessage) {
          return new CountingStatsEngine(super.newStatsEngine(params, runMessage), counts);
        }

        @Override
        public void displayVersionWarning() {
          // Gatling asks Maven Central for a newer release here; an agent has no business doing that in every run.
        }
      };
      result = runner.run();
    } catch (Throwable crash) {
      System.err.println("loadplane: Gatling run crashed: " + crash);
      crash.printStackTrace();
      return 1;
    } finally {
      // Responses that arrived after the last tick (the run's tail) are printed before exit.
      counts.stop();
      try {
        system.close();
      } catch (RuntimeException ignored) {
        // as Gatling: a failing actor-system shutdown does not change the run's result
      }
      eventLoopGroup.shutdownGracefully(0, configuration.core().shutdownTimeout(), TimeUnit.MILLISECONDS);
    }
    if (Loadplane.configured() && !Loadplane.applied()) {
      System.err.println("loadplane: warning: the task's load config was not applied: the simulation does not call Loadplane.closedInjection(...)");
    }
    return new RunResultProcessor(gatlingArgs, configuration).processRunResult(result).code();
  }
}
