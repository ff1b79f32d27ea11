/* What a simulation uses to take the task's load config: the closed injection profile for this machine's share
 * (`constantConcurrentUsers(vus).during(duration)`, or one `rampConcurrentUsers` per stage, from 0), read from the
 * system properties Loadplane's command sets (loadplane.vus, loadplane.durationMs, loadplane.stages). */
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

  /** This machine's share of the task's load as closed-model steps; `fallback` when the task has no load config. */
  public static ClosedInjectionStep[] closedInjection(ClosedInjectionStep... fallback) {
    if (!configured()) return fallback;
    applied = true;
    List<ClosedInjectionStep> steps = new ArrayList<>();
    String stages = System.getProperty("loadplane.stages");
    if (stages != null) {
      int previous = 0;
      for (String stage : stages.split(",")) {
        String[] parts = stage.split(":");
        long ms = Long.parseLong(parts[0]);
        int target = Integer.parseInt(parts[1]);
        steps.add(rampConcurrentUsers(previous).to(target).during(Duration.ofMillis(ms)));
        previous = target;
      }
    } else {
      int vus = Integer.getInteger("loadplane.vus");
      long ms = Long.parseLong(System.getProperty("loadplane.durationMs"));
      steps.add(constantConcurrentUsers(vus).during(Duration.ofMillis(ms)));
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
