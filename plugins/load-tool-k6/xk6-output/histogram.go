// Package loadplane is a k6 output extension (`--out loadplane`) that aggregates k6's HTTP samples in the k6
// process and prints one snapshot per interval, so the Loadplane agent never reads per-request JSON.
package loadplane

import (
	"encoding/base64"
	"math"
	"math/bits"
	"sort"
)

// The bucket scheme of core/domain/metrics/histogram.ts (LatencyHistogram, encoding v1), value for value: 2048 linear
// sub-buckets (exact below 2.048 ms), then 1024 per power of two. The shared vectors in testdata keep both in step.
const (
	subBucketBits  = 11
	subBucketCount = 1 << subBucketBits
	halfCount      = subBucketCount >> 1
	// MaxTrackableMicros is one hour: longer samples are clamped (and counted), as on the TypeScript side.
	MaxTrackableMicros = 3_600_000_000
)

func indexOf(micros uint64) int {
	if micros < subBucketCount {
		return int(micros)
	}
	// bits.Len64 - 1 is floor(log2) exactly, which Math.floor(Math.log2(x)) is for these integers too.
	exponent := bits.Len64(micros) - 1 - (subBucketBits - 1)
	mantissa := int(micros >> uint(exponent)) // in [1024, 2047]
	return subBucketCount + (exponent-1)*halfCount + (mantissa - halfCount)
}

// Histogram is a mergeable latency histogram in microseconds.
type Histogram struct {
	counts map[int]uint64
	count  uint64
	min    uint64
	max    uint64
	sum    uint64
}

// NewHistogram returns an empty histogram.
func NewHistogram() *Histogram {
	return &Histogram{counts: make(map[int]uint64), min: math.MaxUint64}
}

// Record adds one latency in milliseconds; negative, NaN and infinite values are ignored as LatencyHistogram does.
func (h *Histogram) Record(milliseconds float64) {
	if math.IsNaN(milliseconds) || math.IsInf(milliseconds, 0) || milliseconds < 0 {
		return
	}
	// Math.round of a non-negative number is math.Round (ties away from zero = ties up).
	scaled := math.Round(milliseconds * 1000)
	micros := uint64(MaxTrackableMicros)
	if scaled < MaxTrackableMicros {
		micros = uint64(scaled)
	}
	h.counts[indexOf(micros)]++
	h.count++
	h.sum += micros
	if micros < h.min {
		h.min = micros
	}
	if micros > h.max {
		h.max = micros
	}
}

// Count is the number of recorded samples.
func (h *Histogram) Count() uint64 { return h.count }

// Encoded is the JSON form of EncodedHistogram (v1): base64 of varint pairs (index delta, count), then the totals.
type Encoded struct {
	V       int    `json:"v"`
	Buckets string `json:"buckets"`
	Count   uint64 `json:"count"`
	Min     uint64 `json:"min"`
	Max     uint64 `json:"max"`
	Sum     uint64 `json:"sum"`
}

func (h *Histogram) sortedIndexes() []int {
	indexes := make([]int, 0, len(h.counts))
	for index := range h.counts {
		indexes = append(indexes, index)
	}
	sort.Ints(indexes)
	return indexes
}

func appendVarint(bytes []byte, value uint64) []byte {
	for value >= 0x80 {
		bytes = append(bytes, byte(value&0x7f)|0x80)
		value >>= 7
	}
	return append(bytes, byte(value))
}

func (h *Histogram) encodeIndexes(indexes []int) string {
	bytes := make([]byte, 0, len(indexes)*3)
	previous := 0
	for _, index := range indexes {
		bytes = appendVarint(bytes, uint64(index-previous))
		bytes = appendVarint(bytes, h.counts[index])
		previous = index
	}
	return base64.StdEncoding.EncodeToString(bytes)
}

// Encode is byte for byte what LatencyHistogram.encode() gives for the same samples.
func (h *Histogram) Encode() Encoded {
	return h.EncodeParts(0)[0]
}

// EncodeParts splits the encoding into parts of at most maxBuckets buckets (0: one part) whose merge is exactly the
// whole: the first part carries the sum, every part the min and max (merging takes the least and the greatest). A
// wide interval thus never makes a line longer than the agent reads.
func (h *Histogram) EncodeParts(maxBuckets int) []Encoded {
	min := h.min
	if h.count == 0 {
		min = 0
	}
	indexes := h.sortedIndexes()
	if maxBuckets <= 0 || len(indexes) <= maxBuckets {
		return []Encoded{{V: 1, Buckets: h.encodeIndexes(indexes), Count: h.count, Min: min, Max: h.max, Sum: h.sum}}
	}
	parts := make([]Encoded, 0, len(indexes)/maxBuckets+1)
	for start := 0; start < len(indexes); start += maxBuckets {
		end := start + maxBuckets
		if end > len(indexes) {
			end = len(indexes)
		}
		var count, sum uint64
		for _, index := range indexes[start:end] {
			count += h.counts[index]
		}
		if start == 0 {
			sum = h.sum
		}
		parts = append(parts, Encoded{V: 1, Buckets: h.encodeIndexes(indexes[start:end]), Count: count, Min: min, Max: h.max, Sum: sum})
	}
	return parts
}
