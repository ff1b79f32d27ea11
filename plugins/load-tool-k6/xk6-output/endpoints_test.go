package loadplane

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.k6.io/k6/metrics"
)

// taggedSamples is one request of k6: its three HTTP samples with the request's tags.
func taggedSamples(registry *metrics.Registry, tags map[string]string, at time.Time, duration float64, failed bool) metrics.Samples {
	set := registry.RootTagSet().WithTagsFromMap(tags)
	sample := func(name string, kind metrics.MetricType, value float64) metrics.Sample {
		return metrics.Sample{TimeSeries: metrics.TimeSeries{Metric: registry.MustNewMetric(name, kind), Tags: set}, Time: at, Value: value}
	}
	failure := 0.0
	if failed {
		failure = 1
	}
	return metrics.Samples{
		sample("http_reqs", metrics.Counter, 1),
		sample("http_req_duration", metrics.Trend, duration),
		sample("http_req_failed", metrics.Rate, failure),
	}
}

func TestEndpointsByNameTagElseURLWithFailures(t *testing.T) {
	registry := metrics.NewRegistry()
	at := time.UnixMilli(1_700_000_000_000)
	aggregator := NewAggregator()
	var containers []metrics.SampleContainer
	slow := NewHistogram()
	for i := 0; i < 30; i++ {
		containers = append(containers,
			taggedSamples(registry, map[string]string{"name": "fast page", "url": "http://t/fast?i=" + fmt.Sprint(i), "status": "200"}, at, 1, false),
			taggedSamples(registry, map[string]string{"name": "http://t/slow", "url": "http://t/slow", "status": "200"}, at, 60+float64(i), false),
			taggedSamples(registry, map[string]string{"url": "http://t/fail", "status": "500"}, at, 2, true),
		)
		slow.Record(60 + float64(i))
	}
	containers = append(containers, taggedSamples(registry, map[string]string{"name": "down", "status": "0", "error_code": "1212", "error": "dial: i/o timeout"}, at, 5, true))
	aggregator.AddContainers(containers)
	endpoints := aggregator.TakeEndpoints(0)
	snapshots := aggregator.Take(0)
	if snapshots[0].Requests != 91 || snapshots[0].Errors != 31 {
		t.Fatalf("totals %d/%d", snapshots[0].Requests, snapshots[0].Errors)
	}
	byName := map[string]EndpointSnapshot{}
	for _, endpoint := range endpoints {
		byName[endpoint.Name] = endpoint
	}
	if len(byName) != 4 {
		t.Fatalf("endpoints %+v", endpoints)
	}
	if e := byName["fast page"]; e.Requests != 30 || e.Errors != 0 || e.Failures != nil {
		t.Fatalf("fast page %+v", e)
	}
	if e := byName["http://t/slow"]; e.Histogram != slow.Encode() || e.Requests != 30 {
		t.Fatalf("slow %+v", e)
	}
	if e := byName["http://t/fail"]; e.Errors != 30 || len(e.Failures) != 1 || e.Failures[0] != (Failure{Kind: "status", Code: "500", Message: "status 500", Count: 30}) {
		t.Fatalf("fail %+v", e)
	}
	if e := byName["down"]; len(e.Failures) != 1 || e.Failures[0] != (Failure{Kind: "network", Code: "1212", Message: "dial: i/o timeout", Count: 1}) {
		t.Fatalf("down %+v", e)
	}
	if aggregator.TakeEndpoints(0) != nil {
		t.Fatal("the endpoints were not reset")
	}
	var out bytes.Buffer
	if err := WriteEndpoints(&out, endpoints); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var decoded EndpointSnapshot
		if !strings.HasPrefix(line, EndpointPrefix) || json.Unmarshal([]byte(strings.TrimPrefix(line, EndpointPrefix)), &decoded) != nil {
			t.Fatalf("line %q", line)
		}
	}
}

func TestEndpointNamesAreBoundedPerRunWithTotalsIntact(t *testing.T) {
	registry := metrics.NewRegistry()
	at := time.UnixMilli(1_700_000_000_000)
	aggregator := NewAggregator()
	names := map[string]bool{}
	var requests uint64
	for round := 0; round < 5; round++ {
		var containers []metrics.SampleContainer
		for i := 0; i < 1000; i++ {
			containers = append(containers, taggedSamples(registry, map[string]string{"name": fmt.Sprintf("/item/%d", round*1000+i), "status": "200"}, at, 1, false))
		}
		aggregator.AddContainers(containers)
		for _, endpoint := range aggregator.TakeEndpoints(0) {
			names[endpoint.Name] = true
			requests += endpoint.Requests
		}
		aggregator.Take(0)
	}
	if len(names) != MaxEndpointNames+1 || !names[OtherEndpoint] || !names["/item/0"] || names[fmt.Sprintf("/item/%d", MaxEndpointNames)] {
		t.Fatalf("%d names", len(names))
	}
	if requests != 5000 {
		t.Fatalf("requests %d, want 5000", requests)
	}
}
