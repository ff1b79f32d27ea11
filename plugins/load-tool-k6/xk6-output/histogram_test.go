package loadplane

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

// The vectors were written by core/domain/metrics/histogram.ts; plugins/load-tool-k6/histogram-vectors.test.ts checks
// the TypeScript side against the same file, so the two encoders cannot drift apart.
type vector struct {
	Name      string            `json:"name"`
	SamplesMs []json.RawMessage `json:"samplesMs"`
	Encoded   Encoded           `json:"encoded"`
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	data, err := os.ReadFile("testdata/histogram-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vectors []vector
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors) < 5 {
		t.Fatalf("only %d vectors", len(vectors))
	}
	return vectors
}

func sampleOf(t *testing.T, raw json.RawMessage) float64 {
	t.Helper()
	var number float64
	if err := json.Unmarshal(raw, &number); err == nil {
		return number
	}
	var text string // "NaN", "Infinity"
	if err := json.Unmarshal(raw, &text); err != nil {
		t.Fatalf("sample %s", raw)
	}
	if text == "Infinity" {
		return math.Inf(1)
	}
	value, err := strconv.ParseFloat(text, 64)
	if err != nil {
		t.Fatalf("sample %q", text)
	}
	return value
}

func TestEncodingMatchesTheTypeScriptHistogram(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			h := NewHistogram()
			for _, raw := range v.SamplesMs {
				h.Record(sampleOf(t, raw))
			}
			if got := h.Encode(); got != v.Encoded {
				t.Fatalf("encoded %+v, TypeScript %+v", got, v.Encoded)
			}
		})
	}
}

// decodeBuckets reads an encoding back (the TypeScript decoder's job; here to check parts).
func decodeBuckets(t *testing.T, encoded string) map[int]uint64 {
	t.Helper()
	bytes, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]uint64{}
	offset, index := 0, 0
	varint := func() uint64 {
		var value uint64
		for shift := uint(0); ; shift += 7 {
			b := bytes[offset]
			offset++
			value |= uint64(b&0x7f) << shift
			if b < 0x80 {
				return value
			}
		}
	}
	for offset < len(bytes) {
		index += int(varint())
		counts[index] += varint()
	}
	return counts
}

func TestPartsMergeToTheWhole(t *testing.T) {
	h := NewHistogram()
	for i := 0; i < 10000; i++ {
		h.Record(float64(i) * 0.37)
	}
	whole := h.Encode()
	parts := h.EncodeParts(1000)
	if len(parts) < 3 {
		t.Fatalf("%d parts", len(parts))
	}
	merged := map[int]uint64{}
	var count, sum, min, max uint64
	min = math.MaxUint64
	for _, part := range parts {
		buckets := decodeBuckets(t, part.Buckets)
		if len(buckets) > 1000 {
			t.Fatalf("a part of %d buckets", len(buckets))
		}
		var partCount uint64
		for index, c := range buckets {
			merged[index] += c
			partCount += c
		}
		if partCount != part.Count {
			t.Fatalf("part count %d, buckets hold %d", part.Count, partCount)
		}
		count += part.Count
		sum += part.Sum
		if part.Min < min {
			min = part.Min
		}
		if part.Max > max {
			max = part.Max
		}
	}
	wholeBuckets := decodeBuckets(t, whole.Buckets)
	if len(merged) != len(wholeBuckets) {
		t.Fatalf("%d buckets merged, %d whole", len(merged), len(wholeBuckets))
	}
	for index, c := range wholeBuckets {
		if merged[index] != c {
			t.Fatalf("bucket %d: %d merged, %d whole", index, merged[index], c)
		}
	}
	if count != whole.Count || sum != whole.Sum || min != whole.Min || max != whole.Max {
		t.Fatalf("totals %d %d %d %d, whole %+v", count, sum, min, max, whole)
	}
}
