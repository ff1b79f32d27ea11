/* Response latencies counted per whole millisecond (the resolution of Gatling and JMeter, so the counts are exact),
 * printed once a second as one line: `@loadplane-metrics {"from":<epoch ms>,"to":<epoch ms>,"ok":{"<ms>":<n>,...},"ko":{...}}`.
 * With a request name, the same counts per name, each name first on its own line `@loadplane-endpoint {"name":...,
 * "from","to","ok","ko","failures":[{"kind","code","message","count"}]}` (at most 200 names a run, later ones as
 * `(other)`; at most 100 failure groups a second).
 * Shared by the JVM engines' hooks (Gatling's stats engine, JMeter's listener): nothing leaves the JVM per request. */
package loadplane.metrics;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

public final class LatencyCounts {
  public static final String PREFIX = "@loadplane-metrics ";
  public static final String ENDPOINT_PREFIX = "@loadplane-endpoint ";
  public static final int MAX_NAMES = 200;
  public static final String OTHER = "(other)";
  private static final int MAX_FAILURES = 100;
  private static final int MAX_MESSAGE = 300;

  /** One failure group of a second: its endpoint, kind, code, sample message and count. */
  private static final class Failure {
    final String endpoint;
    final String kind;
    final String code;
    final String message;
    long count;

    Failure(String endpoint, String kind, String code, String message) {
      this.endpoint = endpoint;
      this.kind = kind;
      this.code = code;
      this.message = message;
    }
  }

  private final PrintStream out;
  private final Set<String> names = new HashSet<>();
  private Map<String, Map<Long, long[]>> endpoints = new LinkedHashMap<>();
  private Map<String, Failure> failures = new LinkedHashMap<>();
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

  /**
   * One named response: its endpoint's counts too, and when it failed, its group (kind `status`, `network` or `check`,
   * the code, a sample message).
   */
  public synchronized void record(String name, long start, long end, long elapsed, boolean failed, String kind, String code, String message) {
    record(start, end, elapsed, failed);
    String kept = nameOf(name);
    Map<Long, long[]> byLatency = endpoints.get(kept);
    if (byLatency == null) endpoints.put(kept, byLatency = new HashMap<>());
    long latency = Math.max(0, elapsed);
    long[] counts = byLatency.get(latency);
    if (counts == null) byLatency.put(latency, counts = new long[2]);
    counts[failed ? 1 : 0]++;
    if (!failed) return;
    String safeCode = code == null ? "" : code.length() > 100 ? code.substring(0, 100) : code;
    String key = kept + '\u0000' + kind + '\u0000' + safeCode;
    Failure failure = failures.get(key);
    if (failure == null && failures.size() >= MAX_FAILURES) {
      key = OTHER + '\u0000' + kind + '\u0000' + OTHER;
      failure = failures.get(key);
      if (failure == null) failures.put(key, failure = new Failure(kept, kind, OTHER, "more kinds of errors than a report keeps"));
    }
    if (failure == null) {
      String text = message == null ? "" : message.replaceAll("\\s+", " ").trim();
      failures.put(key, failure = new Failure(kept, kind, safeCode, text.length() > MAX_MESSAGE ? text.substring(0, MAX_MESSAGE) : text));
    }
    failure.count++;
  }

  private String nameOf(String name) {
    String trimmed = name == null ? "" : name.trim();
    if (trimmed.isEmpty()) trimmed = "(unnamed)";
    if (trimmed.length() > 200) trimmed = trimmed.substring(0, 200);
    if (names.contains(trimmed) || trimmed.equals(OTHER)) return trimmed;
    if (names.size() >= MAX_NAMES) return OTHER;
    names.add(trimmed);
    return trimmed;
  }

  /** A failure's kind from its response code: a status of 400 or more is `status`, none `network`, else `check`. */
  public static String kindOf(String code) {
    if (code == null || code.isEmpty()) return "network";
    if (code.matches("[1-5]\\d\\d")) return Integer.parseInt(code) >= 400 ? "status" : "check";
    return "network";
  }

  static String json(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }

  private static void appendCounts(StringBuilder ok, StringBuilder ko, Map<Long, long[]> taken) {
    for (Map.Entry<Long, long[]> entry : taken.entrySet()) {
      long[] counts = entry.getValue();
      if (counts[0] > 0) ok.append(ok.length() == 0 ? "" : ",").append('"').append(entry.getKey()).append("\":").append(counts[0]);
      if (counts[1] > 0) ko.append(ko.length() == 0 ? "" : ",").append('"').append(entry.getKey()).append("\":").append(counts[1]);
    }
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
    Map<String, Map<Long, long[]>> byName;
    Map<String, Failure> failed;
    long first;
    long last;
    synchronized (this) {
      if (window.isEmpty()) return;
      taken = window;
      byName = endpoints;
      failed = failures;
      first = from;
      last = to;
      window = new HashMap<>();
      endpoints = new LinkedHashMap<>();
      failures = new LinkedHashMap<>();
      from = Long.MAX_VALUE;
      to = Long.MIN_VALUE;
    }
    // The endpoints first, one line each (no line grows with the number of names), then the whole second's counts.
    for (Map.Entry<String, Map<Long, long[]>> endpoint : byName.entrySet()) {
      StringBuilder ok = new StringBuilder();
      StringBuilder ko = new StringBuilder();
      appendCounts(ok, ko, endpoint.getValue());
      List<String> groups = new ArrayList<>();
      for (Failure failure : failed.values()) {
        if (!failure.endpoint.equals(endpoint.getKey())) continue;
        groups.add("{\"kind\":" + json(failure.kind) + ",\"code\":" + json(failure.code) + ",\"message\":" + json(failure.message) + ",\"count\":" + failure.count + "}");
      }
      out.println(ENDPOINT_PREFIX + "{\"name\":" + json(endpoint.getKey()) + ",\"from\":" + first + ",\"to\":" + last + ",\"ok\":{" + ok + "},\"ko\":{" + ko
          + "},\"failures\":[" + String.join(",", groups) + "]}");
    }
    StringBuilder ok = new StringBuilder();
    StringBuilder ko = new StringBuilder();
    appendCounts(ok, ko, taken);
    out.println(PREFIX + "{\"from\":" + first + ",\"to\":" + last + ",\"ok\":{" + ok + "},\"ko\":{" + ko + "}}");
    out.flush();
  }
}
