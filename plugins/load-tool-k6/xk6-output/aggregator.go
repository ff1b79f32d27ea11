package loadplane

import (
	"sort"
	"strings"
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
// request count, failed http_req_failed samples into the error count (what the JSON path of the agent counts). With
// tags, the same per endpoint (the `name` tag, which k6 sets to the URL unless the script names the request) and the
// failures by kind and code. One goroutine uses it (the flusher), so it has no lock.
type Aggregator struct {
	histogram *Histogram
	requests  uint64
	errors    uint64
	first     int64
	last      int64
	touched   bool
	endpoints map[string]*endpointWindow
	failures  map[failureKey]*failure
	// Every endpoint name the run kept (at most MaxEndpointNames); kept across intervals.
	names map[string]struct{}
}

// MaxEndpointNames is how many endpoint names a run keeps; later ones are counted under OtherEndpoint.
const MaxEndpointNames = 200

// OtherEndpoint holds every name past the first MaxEndpointNames.
const OtherEndpoint = "(other)"

// maxFailures bounds an interval's failure groups; later ones are counted per kind under OtherEndpoint.
const maxFailures = 100

// maxMessage bounds a failure's sample message (bytes).
const maxMessage = 300

type endpointWindow struct {
	histogram *Histogram
	requests  uint64
	errors    uint64
}

type failureKey struct{ endpoint, kind, code string }

type failure struct {
	count   uint64
	message string
}

// Failure is one failure group of an endpoint in an interval, as the agent reads it.
type Failure struct {
	Kind    string `json:"kind"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Count   uint64 `json:"count"`
}

// EndpointSnapshot is one endpoint's share of an interval (the agent's engine endpoint line).
type EndpointSnapshot struct {
	Name      string    `json:"name"`
	Histogram Encoded   `json:"histogram"`
	Requests  uint64    `json:"requests"`
	Errors    uint64    `json:"errors"`
	StartedAt int64     `json:"startedAt"`
	EndedAt   int64     `json:"endedAt"`
	Failures  []Failure `json:"failures,omitempty"`
}

// NewAggregator returns an aggregator with an empty interval.
func NewAggregator() *Aggregator {
	return &Aggregator{histogram: NewHistogram(), endpoints: map[string]*endpointWindow{}, failures: map[failureKey]*failure{}, names: map[string]struct{}{}}
}

func tag(tags *metrics.TagSet, name string) string {
	if tags == nil {
		return ""
	}
	value, _ := tags.Get(name)
	return value
}

// endpointName is the name a sample is kept under: the `name` tag, else the URL; (other) past MaxEndpointNames.
func (a *Aggregator) endpointName(tags *metrics.TagSet) string {
	name := strings.TrimSpace(tag(tags, "name"))
	if name == "" {
		name = strings.TrimSpace(tag(tags, "url"))
	}
	if name == "" {
		name = "(unnamed)"
	}
	if len(name) > 200 {
		name = name[:200]
	}
	if _, kept := a.names[name]; kept || name == OtherEndpoint {
		return name
	}
	if len(a.names) >= MaxEndpointNames {
		return OtherEndpoint
	}
	a.names[name] = struct{}{}
	return name
}

func (a *Aggregator) endpoint(tags *metrics.TagSet) *endpointWindow {
	name := a.endpointName(tags)
	window := a.endpoints[name]
	if window == nil {
		window = &endpointWindow{histogram: NewHistogram()}
		a.endpoints[name] = window
	}
	return window
}

// fail counts a failed request of an endpoint: kind status with the status code, or network (status 0) with k6's
// error_code; the error tag (when k6 sets it) is the message.
func (a *Aggregator) fail(endpoint string, tags *metrics.TagSet) {
	status := tag(tags, "status")
	kind, code := "status", status
	if status == "" || status == "0" {
		kind, code = "network", tag(tags, "error_code")
		if code == "" {
			code = "error"
		}
	}
	message := tag(tags, "error")
	if message == "" {
		message = "status " + status
		if kind == "network" {
			message = "no answer (k6 error code " + code + ")"
		}
	}
	a.failure(failureKey{endpoint, kind, code}, message)
}

func (a *Aggregator) failure(key failureKey, message string) {
	if len(message) > maxMessage {
		message = message[:maxMessage]
	}
	known := a.failures[key]
	if known == nil && len(a.failures) >= maxFailures {
		key = failureKey{OtherEndpoint, key.kind, OtherEndpoint}
		message = "more kinds of errors than a report keeps"
		known = a.failures[key]
	}
	if known == nil {
		known = &failure{message: message}
		a.failures[key] = known
	}
	known.count++
}

// Add takes one sample without tags; metrics other than the three are ignored.
func (a *Aggregator) Add(name string, value float64, at time.Time) {
	a.AddTagged(name, value, at, nil)
}

// AddTagged takes one sample; with tags, its endpoint's figures too, and a failed check (`checks` 0) as a check failure.
func (a *Aggregator) AddTagged(name string, value float64, at time.Time, tags *metrics.TagSet) {
	switch name {
	case "http_req_duration":
		a.histogram.Record(value)
		if tags != nil {
			a.endpoint(tags).histogram.Record(value)
		}
	case "http_reqs":
		a.requests += uint64(value)
		if tags != nil {
			a.endpoint(tags).requests += uint64(value)
		}
	case "http_req_failed":
		if value == 0 {
			return
		}
		a.errors++
		if tags != nil {
			a.endpoint(tags).errors++
			a.fail(a.endpointName(tags), tags)
		}
	case "checks":
		// Not a request: only its failure group (no endpoint: a check has no URL), under the check's name.
		if value == 0 && tags != nil {
			a.failure(failureKey{"", "check", tag(tags, "check")}, "check failed: "+tag(tags, "check"))
		}
		return
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
			a.AddTagged(sample.Metric.Name, sample.Value, sample.Time, sample.Tags)
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
	a.histogram, a.requests, a.errors, a.first, a.last, a.touched = NewHistogram(), 0, 0, 0, 0, false
	return snapshots
}

// TakeEndpoints returns the interval's endpoints (a histogram of more than maxBuckets buckets in several parts, the
// counts and failures in the first) and starts their new interval; call it before Take, which resets the interval's
// time span. Nil when no endpoint had a sample.
func (a *Aggregator) TakeEndpoints(maxBuckets int) []EndpointSnapshot {
	if len(a.endpoints) == 0 && len(a.failures) == 0 {
		return nil
	}
	first, last := a.first, a.last
	if !a.touched {
		now := time.Now().UnixMilli()
		first, last = now, now
	}
	byEndpoint := map[string][]Failure{}
	for key, one := range a.failures {
		byEndpoint[key.endpoint] = append(byEndpoint[key.endpoint], Failure{Kind: key.kind, Code: key.code, Message: one.message, Count: one.count})
	}
	names := make([]string, 0, len(a.endpoints))
	for name := range a.endpoints {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []EndpointSnapshot
	for _, name := range names {
		window := a.endpoints[name]
		for i, part := range window.histogram.EncodeParts(maxBuckets) {
			snapshot := EndpointSnapshot{Name: name, Histogram: part, StartedAt: first, EndedAt: last}
			if i == 0 {
				snapshot.Requests, snapshot.Errors, snapshot.Failures = window.requests, window.errors, byEndpoint[name]
				delete(byEndpoint, name)
			}
			out = append(out, snapshot)
		}
	}
	// Failures of no endpoint of this interval (failed checks): a line with no requests.
	rest := make([]string, 0, len(byEndpoint))
	for name := range byEndpoint {
		rest = append(rest, name)
	}
	sort.Strings(rest)
	for _, name := range rest {
		out = append(out, EndpointSnapshot{Name: name, Histogram: NewHistogram().Encode(), StartedAt: first, EndedAt: last, Failures: byEndpoint[name]})
	}
	a.endpoints, a.failures = map[string]*endpointWindow{}, map[failureKey]*failure{}
	return out
}
