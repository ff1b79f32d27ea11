/* What a simulation uses to take the task's load config: the closed injection profile for this machine's share
 * (`constantConcurrentUsers(vus).during(duration)`, or one `rampConcurrentUsers` per stage, from 0), read from the
 * system properties Loadplane's command sets (loadplane.vus, loadplane.durationMs, loadplane.stages). Scala
 * simulations use loadplane.gatling.scaladsl.Loadplane, which builds the same steps with the Scala DSL. */
package loadplane.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;

import io.gatling.javaapi.core.ClosedInjectionStep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

public final class Loadplane {
  private static volatile boolean applied;

  private Loadplane() {}

  /** Whether the task has a load config (else the simulation's own injection rules). */
  public static boolean configured() {
    return System.getProperty("loadplane.stages") != null || System.getProperty("loadplane.vus") != null;
  }

  static boolean applied() {
    return applied;
  }

  /**
   * This machine's share of the task's load as closed-model steps, `{duration ms, users from, users to}` each (a
   * constant load has from = to), or null without a load config. The Java and Scala helpers build Gatling's steps from it.
   */
  public static long[][] plan() {
    if (!configured()) return null;
    applied = true;
    String stages = System.getProperty("loadplane.stages");
    if (stages == null) {
      long vus = Long.parseLong(System.getProperty("loadplane.vus"));
      return new long[][] {{Long.parseLong(System.getProperty("loadplane.durationMs")), vus, vus}};
    }
    String[] parts = stages.split(",");
    long[][] plan = new long[parts.length][];
    long previous = 0;
    for (int i = 0; i < parts.length; i++) {
      String[] stage = parts[i].split(":");
      long target = Long.parseLong(stage[1]);
      plan[i] = new long[] {Long.parseLong(stage[0]), previous, target};
      previous = target;
    }
    return plan;
  }

  /** This machine's share of the task's load as closed-model steps (Java DSL); `fallback` when the task has no load config. */
  public static ClosedInjectionStep[] closedInjection(ClosedInjectionStep... fallback) {
    long[][] plan = plan();
    if (plan == null) return fallback;
    // A vus/duration config is one constant step; stages ramp from the previous target (the first from 0).
    boolean constant = System.getProperty("loadplane.stages") == null;
    List<ClosedInjectionStep> steps = new ArrayList<>();
    for (long[] step : plan) {
      Duration during = Duration.ofMillis(step[0]);
      steps.add(constant ? constantConcurrentUsers((int) step[1]).during(during) : rampConcurrentUsers((int) step[1]).to((int) step[2]).during(during));
    }
    return steps.toArray(new ClosedInjectionStep[0]);
  }

  /** This machine's place among the task's machines (0-based) and their count. */
  public static int machineIndex() {
    return Integer.getInteger("loadplane.machineIndex", 0);
  }

  public static int machineCount() {
    return Integer.getInteger("loadplane.machineCount", 1);
  }
}
