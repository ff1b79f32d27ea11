package loadplane

import (
	"time"

	"go.k6.io/k6/metrics"
)

// Snapshot is one interval's metrics, the JSON the agent reads (MetricSnapshot of core/capabilities/load-tool.ts).
type Snapshot struct {
	Histogram Encoded `json:"histogram"`
	Requests  uint64  `json:"requests"`
	Errors    uint64  `json:"errors"`
	// Epoch milliseconds of the interval's first and last sample.
	StartedAt int64 `json:"startedAt"`
	EndedAt   int64 `json:"endedAt"`
}

// Aggregator folds k6 samples into the current interval: http_req_duration into the histogram, http_reqs into the
// request count, failed http_req_failed samples into the error count (what the JSON path of the agent counts).
// One goroutine uses it (the flusher), so it has no lock.
type Aggregator struct {
	histogram *Histogram
	requests  uint64
	errors    uint64
	first     int64
	last      int64
	touched   bool
}

// NewAggregator returns an aggregator with an empty interval.
func NewAggregator() *Aggregator {
	return &Aggregator{histogram: NewHistogram()}
}

// Add takes one sample; metrics other than the three are ignored.
func (a *Aggregator) Add(name string, value float64, at time.Time) {
	switch name {
	case "http_req_duration":
		a.histogram.Record(value)
	case "http_reqs":
		a.requests += uint64(value)
	case "http_req_failed":
		if value == 0 {
			return
		}
		a.errors++
	default:
		return
	}
	ms := at.UnixMilli()
	if !a.touched || ms < a.first {
		a.first = ms
	}
	if !a.touched || ms > a.last {
		a.last = ms
	}
	a.touched = true
}

// AddContainers takes what k6 hands an output.
func (a *Aggregator) AddContainers(containers []metrics.SampleContainer) {
	for _, container := range containers {
		for _, sample := range container.GetSamples() {
			if sample.Metric == nil {
				continue
			}
			a.Add(sample.Metric.Name, sample.Value, sample.Time)
		}
	}
}

// Take returns the interval's snapshot (in parts of at most maxBuckets buckets each, see EncodeParts) and starts a
// new interval; nil when nothing happened.
func (a *Aggregator) Take(maxBuckets int) []Snapshot {
	if !a.touched {
		return nil
	}
	parts := a.histogram.EncodeParts(maxBuckets)
	snapshots := make([]Snapshot, len(parts))
	for i, part := range parts {
		snapshots[i] = Snapshot{Histogram: part, StartedAt: a.first, EndedAt: a.last}
	}
	snapshots[0].Requests = a.requests
	snapshots[0].Errors = a.errors
	*a = Aggregator{histogram: NewHistogram()}
	return snapshots
}
