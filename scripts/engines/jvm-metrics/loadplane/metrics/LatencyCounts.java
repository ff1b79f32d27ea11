/* Response latencies counted per whole millisecond (the resolution of Gatling and JMeter, so the counts are exact),
 * printed once a second as one line: `@loadplane-metrics {"from":<epoch ms>,"to":<epoch ms>,"ok":{"<ms>":<n>,...},"ko":{...}}`.
 * Shared by the JVM engines' hooks (Gatling's stats engine, JMeter's listener): nothing leaves the JVM per request. */
package loadplane.metrics;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

public final class LatencyCounts {
  public static final String PREFIX = "@loadplane-metrics ";

  private final PrintStream out;
  private Map<Long, long[]> window = new HashMap<>();
  private long from = Long.MAX_VALUE;
  private long to = Long.MIN_VALUE;
  private Thread ticker;

  public LatencyCounts(PrintStream out) {
    this.out = out;
  }

  /** One response: [0] counts OK, [1] KO, per latency in ms. Called from the engine's own threads: kept short. */
  public void record(long start, long end, boolean failed) {
    record(start, end, end - start, failed);
  }

  /** One response whose latency is not end - start (JMeter subtracts the idle time of a sample). */
  public synchronized void record(long start, long end, long elapsed, boolean failed) {
    long latency = Math.max(0, elapsed);
    long[] counts = window.get(latency);
    if (counts == null) window.put(latency, counts = new long[2]);
    counts[failed ? 1 : 0]++;
    if (start < from) from = start;
    if (end > to) to = end;
  }

  public void start() {
    ticker = new Thread(() -> {
      try {
        while (!Thread.currentThread().isInterrupted()) {
          Thread.sleep(1000);
          flush();
        }
      } catch (InterruptedException stopped) {
        // stop() flushes the rest
      }
    }, "loadplane-metrics");
    ticker.setDaemon(true);
    ticker.start();
  }

  public void stop() {
    if (ticker != null) ticker.interrupt();
    flush();
  }

  public void flush() {
    Map<Long, long[]> taken;
    long first;
    long last;
    synchronized (this) {
      if (window.isEmpty()) return;
      taken = window;
      first = from;
      last = to;
      window = new HashMap<>();
      from = Long.MAX_VALUE;
      to = Long.MIN_VALUE;
    }
    StringBuilder ok = new StringBuilder();
    StringBuilder ko = new StringBuilder();
    for (Map.Entry<Long, long[]> entry : taken.entrySet()) {
      long[] counts = entry.getValue();
      if (counts[0] > 0) ok.append(ok.length() == 0 ? "" : ",").append('"').append(entry.getKey()).append("\":").append(counts[0]);
      if (counts[1] > 0) ko.append(ko.length() == 0 ? "" : ",").append('"').append(entry.getKey()).append("\":").append(counts[1]);
    }
    out.println(PREFIX + "{\"from\":" + first + ",\"to\":" + last + ",\"ok\":{" + ok + "},\"ko\":{" + ko + "}}");
    out.flush();
  }
}
