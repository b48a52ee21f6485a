package main

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"

	testpb "google.golang.org/grpc/interop/grpc_testing"
)

// duplicate_trailers_kept: a trailer key repeated, plain and -bin, keeps every value in order
// (PROTOCOL-HTTP2.md Custom-Metadata). Converters that store trailers in a map keep only one
// (connect-go#190).

var (
	dupValues    = []string{"one", "two"}
	dupBinValues = []string{"\x00\x01", "\xff\xfe"}
)

func duplicateTrailersServer() http.Handler {
	play := func(c *rawCall) {
		md := []string{"x-probe-dup", dupValues[0], "x-probe-dup", dupValues[1]}
		for _, v := range dupBinValues { // -bin values travel base64 (padded, as grpc-go sends them)
			md = append(md, "x-probe-dup-bin", base64.StdEncoding.EncodeToString([]byte(v)))
		}
		serveUnary(c, unaryAnswer, md...)
	}
	return rawHandler(play, nil)
}

func checkDuplicateTrailers(c *checker) error {
	tr, err := c.unaryOK(fmt.Sprintf("UnaryCall, expecting trailers x-probe-dup %q and x-probe-dup-bin %q", dupValues, dupBinValues),
		&testpb.SimpleRequest{ResponseSize: 10}, "x-probe-dup", "x-probe-dup-bin")
	if err != nil {
		return err
	}
	if !slices.Equal(tr["x-probe-dup"], dupValues) {
		return failf("want trailer x-probe-dup %q (both, in order), got %q", dupValues, tr["x-probe-dup"])
	}
	if !slices.Equal(tr["x-probe-dup-bin"], dupBinValues) {
		return failf("want trailer x-probe-dup-bin %q (both, in order), got %q", dupBinValues, tr["x-probe-dup-bin"])
	}
	return nil
}
