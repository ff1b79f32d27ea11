package loadplane

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"go.k6.io/k6/metrics"
	"go.k6.io/k6/output"
)

func samplesOf(registry *metrics.Registry, at time.Time, duration float64, failed bool) metrics.Samples {
	failure := 0.0
	if failed {
		failure = 1
	}
	tags := registry.RootTagSet()
	sample := func(name string, kind metrics.MetricType, value float64) metrics.Sample {
		return metrics.Sample{TimeSeries: metrics.TimeSeries{Metric: registry.MustNewMetric(name, kind), Tags: tags}, Time: at, Value: value}
	}
	return metrics.Samples{
		sample("http_reqs", metrics.Counter, 1),
		sample("http_req_duration", metrics.Trend, duration),
		sample("http_req_waiting", metrics.Trend, duration/2), // ignored
		sample("http_req_failed", metrics.Rate, failure),
		sample("iterations", metrics.Counter, 1), // ignored
	}
}

func TestAggregatorCountsRequestsErrorsAndLatencies(t *testing.T) {
	registry := metrics.NewRegistry()
	start := time.UnixMilli(1_700_000_000_000)
	aggregator := NewAggregator()
	if aggregator.Take(0) != nil {
		t.Fatal("an empty interval gave a snapshot")
	}
	expected := NewHistogram()
	var containers []metrics.SampleContainer
	for i := 0; i < 250; i++ {
		duration := 1 + float64(i)*0.5
		expected.Record(duration)
		containers = append(containers, samplesOf(registry, start.Add(time.Duration(i)*time.Millisecond), duration, i%10 == 0))
	}
	aggregator.AddContainers(containers)
	snapshots := aggregator.Take(0)
	if len(snapshots) != 1 {
		t.Fatalf("%d snapshots", len(snapshots))
	}
	s := snapshots[0]
	if s.Requests != 250 || s.Errors != 25 {
		t.Fatalf("requests %d errors %d, want 250 and 25", s.Requests, s.Errors)
	}
	if s.Histogram != expected.Encode() {
		t.Fatalf("histogram %+v, want %+v", s.Histogram, expected.Encode())
	}
	if s.StartedAt != start.UnixMilli() || s.EndedAt != start.UnixMilli()+249 {
		t.Fatalf("interval %d..%d", s.StartedAt, s.EndedAt)
	}
	// The next interval starts empty.
	if aggregator.Take(0) != nil {
		t.Fatal("a taken interval was given again")
	}
	aggregator.AddContainers([]metrics.SampleContainer{samplesOf(registry, start.Add(time.Second), 7, false)})
	next := aggregator.Take(0)
	if len(next) != 1 || next[0].Requests != 1 || next[0].Errors != 0 || next[0].Histogram.Count != 1 || next[0].StartedAt != start.UnixMilli()+1000 {
		t.Fatalf("next interval %+v", next)
	}
}

func TestSnapshotsAreOnePrefixedJSONLineEach(t *testing.T) {
	registry := metrics.NewRegistry()
	aggregator := NewAggregator()
	for i := 0; i < 5000; i++ {
		aggregator.AddContainers([]metrics.SampleContainer{samplesOf(registry, time.UnixMilli(int64(i)), float64(i)*0.77, false)})
	}
	var out bytes.Buffer
	if err := WriteSnapshots(&out, aggregator.Take(1000)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("%d lines for a histogram wider than one part", len(lines))
	}
	var requests, count uint64
	for _, line := range lines {
		if !strings.HasPrefix(line, SnapshotPrefix) {
			t.Fatalf("line without the prefix: %.80s", line)
		}
		var snapshot Snapshot
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, SnapshotPrefix)), &snapshot); err != nil {
			t.Fatal(err)
		}
		requests += snapshot.Requests
		count += snapshot.Histogram.Count
	}
	if requests != 5000 || count != 5000 {
		t.Fatalf("requests %d, latencies %d over the lines; want 5000 each", requests, count)
	}
}

func TestTheIntervalArgument(t *testing.T) {
	if _, err := New(outputParams("nonsense")); err == nil {
		t.Fatal("a bad interval was accepted")
	}
	o, err := New(outputParams("250ms"))
	if err != nil || o.(*Output).interval != 250*time.Millisecond {
		t.Fatalf("250ms: %v", err)
	}
	o, err = New(outputParams(""))
	if err != nil || o.(*Output).interval != DefaultInterval {
		t.Fatalf("default: %v", err)
	}
}

func outputParams(argument string) output.Params {
	return output.Params{ConfigArgument: argument, StdOut: &bytes.Buffer{}}
}

// testdata/snapshot-lines.txt is what the agent's parser reads in plugins/load-tool-k6/k6-tool.test.ts: 100 requests
// of (1 + 1.5 i) ms at epoch ms 1700000000000 + i, every 7th failed, in parts of at most 40 buckets.
// LOADPLANE_UPDATE_GOLDEN=1 go test rewrites it.
func TestSnapshotLinesGolden(t *testing.T) {
	registry := metrics.NewRegistry()
	aggregator := NewAggregator()
	for i := 0; i < 100; i++ {
		at := time.UnixMilli(1_700_000_000_000 + int64(i))
		aggregator.AddContainers([]metrics.SampleContainer{samplesOf(registry, at, 1+1.5*float64(i), i%7 == 0)})
	}
	var out bytes.Buffer
	if err := WriteSnapshots(&out, aggregator.Take(40)); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("LOADPLANE_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile("testdata/snapshot-lines.txt", out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile("testdata/snapshot-lines.txt")
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(golden) {
		t.Fatalf("snapshot lines changed:\n%s\nwant:\n%s", out.String(), golden)
	}
}

// BenchmarkAggregatorPerRequest: what one HTTP request costs the output inside k6 (its 5 samples here; k6 emits ~13,
// of which the other 8 are skipped by name). Compare with the ~50 µs of CPU k6 spends per request on a 2-core machine.
func BenchmarkAggregatorPerRequest(b *testing.B) {
	registry := metrics.NewRegistry()
	at := time.UnixMilli(1_700_000_000_000)
	containers := make([]metrics.SampleContainer, 1000)
	for i := range containers {
		containers[i] = samplesOf(registry, at, 0.2+float64(i%500)*0.013, i%50 == 0)
	}
	aggregator := NewAggregator()
	b.ResetTimer()
	for i := 0; i < b.N; i += len(containers) {
		aggregator.AddContainers(containers)
		if i%100_000 == 0 {
			aggregator.Take(maxBucketsPerLine)
		}
	}
}
