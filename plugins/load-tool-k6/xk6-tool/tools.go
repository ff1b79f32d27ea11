//go:build tools

// Package tools pins xk6, which scripts/engines/k6.sh installs from this module (go.sum: every checksum it needs).
package tools

import _ "go.k6.io/xk6/cmd/xk6"
