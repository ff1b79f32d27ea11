/* A StatsEngine that hands every call to Gatling's own (the console writer, and the file writer when configured) and
 * also counts each response's latency in LatencyCounts, per request name too, with failures by kind and code. */
package loadplane.gatling;

import loadplane.metrics.LatencyCounts;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.stats.Status;
import io.gatling.core.actor.ActorRef;
import io.gatling.core.controller.Controller;
import io.gatling.core.session.GroupBlock;
import io.gatling.core.stats.StatsEngine;
import scala.Option;
import scala.collection.immutable.List;

final class CountingStatsEngine implements StatsEngine {
  private final StatsEngine delegate;
  private final LatencyCounts counts;

  CountingStatsEngine(StatsEngine delegate, LatencyCounts counts) {
    this.delegate = delegate;
    this.counts = counts;
  }

  @Override public void start() { delegate.start(); }

  @Override public void stop(ActorRef<Controller.Command> controller, Option<Exception> exception) { delegate.stop(controller, exception); }

  @Override public void logUserStart(String scenario) { delegate.logUserStart(scenario); }

  @Override public void logUserEnd(String scenario) { delegate.logUserEnd(scenario); }

  @Override
  public void logResponse(String scenario, List<String> groups, String requestName, long startTimestamp, long endTimestamp,
      Status status, Option<String> responseCode, Option<String> message) {
    // Gatling's DataWritersStatsEngine drops responses without an end (-1) as well.
    if (endTimestamp >= 0) {
      boolean failed = status != OK$.MODULE$;
      String code = responseCode.isDefined() ? responseCode.get() : null;
      String text = message.isDefined() ? message.get() : null;
      String kind = null;
      if (failed) {
        // A status of 400 or more is `status`; no response is `network` (the exception's class, `j.n.ConnectException: ...`,
        // is the code); a failed check of another answer is `check`.
        kind = LatencyCounts.kindOf(code);
        if (kind.equals("network")) {
          String cause = text == null ? "" : text;
          int colon = cause.indexOf(':');
          code = colon > 0 ? cause.substring(0, colon).trim() : (cause.isEmpty() ? "error" : cause);
        } else if (kind.equals("check") && text != null) {
          int comma = text.indexOf(',');
          code = comma > 0 ? text.substring(0, comma).trim() : text;
        }
        if (text == null) text = "status " + code;
      }
      // The request's name names the endpoint, as in Gatling's own reports.
      counts.record(requestName, startTimestamp, endTimestamp, endTimestamp - startTimestamp, failed, kind, code, text);
    }
    delegate.logResponse(scenario, groups, requestName, startTimestamp, endTimestamp, status, responseCode, message);
  }

  @Override public void logGroupEnd(String scenario, GroupBlock groupBlock, long exitTimestamp) { delegate.logGroupEnd(scenario, groupBlock, exitTimestamp); }

  @Override
  public void logRequestCrash(String scenario, List<String> groups, String requestName, String error) {
    delegate.logRequestCrash(scenario, groups, requestName, error);
  }
}
