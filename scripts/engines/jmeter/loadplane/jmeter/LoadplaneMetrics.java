/* A JMeter listener the agent adds to every plan: each top-level sample's elapsed time is counted per millisecond in
 * LatencyCounts (per sampler label too, with failures by kind and code), which prints one `@loadplane-metrics` line a
 * second on stdout (after one `@loadplane-endpoint` line per label). Nothing is written per request (no JTL),
 * so measuring costs JMeter one synchronized map update per sample. One instance serves every thread (NoThreadClone). */
package loadplane.jmeter;

import java.io.Serializable;
import loadplane.metrics.LatencyCounts;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class LoadplaneMetrics extends AbstractTestElement implements SampleListener, TestStateListener, NoThreadClone, Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(LoadplaneMetrics.class);

  private transient volatile LatencyCounts counts;

  @Override
  public void testStarted() {
    LatencyCounts started = new LatencyCounts(System.out);
    counts = started;
    started.start();
    // A cancelled run ends with SIGTERM, where JMeter calls no testEnded: what was counted since the last tick is
    // still printed on the way out (after a normal end there is nothing left to print).
    Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "loadplane-metrics-flush"));
    // In the run's log, so a reader sees how the numbers were taken.
    log.info("Loadplane metrics: each sample's elapsed time counted per millisecond in this JVM, one line a second");
  }

  @Override
  public void testStarted(String host) {
    testStarted();
  }

  @Override
  public void testEnded() {
    LatencyCounts ended = counts;
    if (ended != null) ended.stop();
  }

  @Override
  public void testEnded(String host) {
    testEnded();
  }

  /** As a JTL line would have it: the top-level sample (a redirect's or a transaction's children are inside it). */
  @Override
  public void sampleOccurred(SampleEvent event) {
    LatencyCounts current = counts;
    SampleResult result = event.getResult();
    if (current == null || result == null) return;
    long start = result.getStartTime();
    boolean failed = !result.isSuccessful();
    String code = result.getResponseCode();
    String kind = null;
    String message = null;
    if (failed) {
      // A failed assertion of an answer that was not itself an error is a check, named by the assertion.
      AssertionResult assertion = firstFailedAssertion(result);
      kind = LatencyCounts.kindOf(code);
      if (kind.equals("check") || (assertion != null && !kind.equals("status"))) {
        kind = "check";
        code = assertion != null ? assertion.getName() : code;
        message = assertion != null ? assertion.getFailureMessage() : result.getResponseMessage();
      } else if (kind.equals("network")) {
        // `Non HTTP response code: java.net.ConnectException`: the exception's class is the code.
        String prefix = "Non HTTP response code: ";
        code = code != null && code.startsWith(prefix) ? code.substring(prefix.length()) : (code == null || code.isEmpty() ? "error" : code);
        message = result.getResponseMessage();
      } else {
        message = "status " + code + (result.getResponseMessage() != null ? " " + result.getResponseMessage() : "");
      }
    }
    // The sampler's label names the endpoint, as in JMeter's own reports.
    current.record(result.getSampleLabel(), start, result.getEndTime(), result.getTime(), failed, kind, code, message);
  }

  private static AssertionResult firstFailedAssertion(SampleResult result) {
    for (AssertionResult assertion : result.getAssertionResults()) {
      if (assertion.isFailure() || assertion.isError()) return assertion;
    }
    return null;
  }

  @Override
  public void sampleStarted(SampleEvent event) {
    // only finished samples count
  }

  @Override
  public void sampleStopped(SampleEvent event) {
    // only finished samples count
  }
}
