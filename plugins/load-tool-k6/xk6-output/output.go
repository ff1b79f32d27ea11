package loadplane

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"go.k6.io/k6/output"
)

// SnapshotPrefix starts every snapshot line on stdout; the agent's k6 parser keeps such lines out of the log.
const SnapshotPrefix = "loadplane-k6-snapshot "

// EndpointPrefix starts every per-endpoint line (printed before the interval's snapshot line).
const EndpointPrefix = "loadplane-k6-endpoint "

// DefaultInterval is how often a snapshot is printed unless `--out loadplane=<duration>` says otherwise.
const DefaultInterval = 500 * time.Millisecond

// maxBucketsPerLine keeps a snapshot line well under the agent's 64 KiB line limit (at most ~7 bytes a bucket, 4/3
// for base64).
const maxBucketsPerLine = 4000

func init() {
	output.RegisterExtension("loadplane", New)
}

// Output aggregates in k6's process and prints one snapshot line per interval.
type Output struct {
	output.SampleBuffer
	interval   time.Duration
	out        io.Writer
	aggregator *Aggregator
	flusher    *output.PeriodicFlusher
}

var _ output.Output = (*Output)(nil)

// New builds the output from `--out loadplane[=<interval>]`.
func New(params output.Params) (output.Output, error) {
	interval := DefaultInterval
	if argument := strings.TrimSpace(params.ConfigArgument); argument != "" {
		parsed, err := time.ParseDuration(argument)
		if err != nil || parsed < 10*time.Millisecond {
			return nil, fmt.Errorf("loadplane output: the argument must be an interval of at least 10ms, like 500ms (got %q)", argument)
		}
		interval = parsed
	}
	return &Output{interval: interval, out: params.StdOut, aggregator: NewAggregator()}, nil
}

// Description is shown in k6's banner.
func (o *Output) Description() string {
	return fmt.Sprintf("loadplane (HDR snapshots every %s)", o.interval)
}

// Start begins the periodic flush.
func (o *Output) Start() error {
	flusher, err := output.NewPeriodicFlusher(o.interval, o.flush)
	if err != nil {
		return err
	}
	o.flusher = flusher
	return nil
}

// Stop flushes the last samples (PeriodicFlusher.Stop flushes once more) before k6 exits.
func (o *Output) Stop() error {
	if o.flusher != nil {
		o.flusher.Stop()
	}
	return nil
}

func (o *Output) flush() {
	o.aggregator.AddContainers(o.GetBufferedSamples())
	_ = WriteEndpoints(o.out, o.aggregator.TakeEndpoints(maxBucketsPerLine))
	_ = WriteSnapshots(o.out, o.aggregator.Take(maxBucketsPerLine))
}

// WriteEndpoints prints each endpoint's snapshot as one line, in one Write each.
func WriteEndpoints(out io.Writer, endpoints []EndpointSnapshot) error {
	for _, endpoint := range endpoints {
		encoded, err := json.Marshal(endpoint)
		if err != nil {
			return err
		}
		line := make([]byte, 0, len(EndpointPrefix)+len(encoded)+1)
		line = append(append(append(line, EndpointPrefix...), encoded...), '\n')
		if _, err := out.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// WriteSnapshots prints each snapshot as one line, in one Write so k6's own output never interleaves with it.
func WriteSnapshots(out io.Writer, snapshots []Snapshot) error {
	for _, snapshot := range snapshots {
		encoded, err := json.Marshal(snapshot)
		if err != nil {
			return err
		}
		line := make([]byte, 0, len(SnapshotPrefix)+len(encoded)+1)
		line = append(append(append(line, SnapshotPrefix...), encoded...), '\n')
		if _, err := out.Write(line); err != nil {
			return err
		}
	}
	return nil
}
