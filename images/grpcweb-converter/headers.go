package main

import (
	"net/http"
	"net/textproto"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

// Content type families. A suffix such as "+proto" or "+json" is carried over unchanged.
const (
	familyGRPC    = "grpc"
	familyWeb     = "grpc-web"
	familyWebText = "grpc-web-text"
)

// contentType is a parsed application/grpc* content type.
type contentType struct {
	family string // familyGRPC, familyWeb or familyWebText
	suffix string // "" or "+codec"
}

func (c contentType) String() string { return "application/" + c.family + c.suffix }

// with returns the same codec in another family.
func (c contentType) with(family string) contentType { return contentType{family, c.suffix} }

// parseContentType accepts application/grpc, application/grpc-web and application/grpc-web-text,
// each optionally with "+codec" and parameters.
func parseContentType(v string) (contentType, bool) {
	v, _, _ = strings.Cut(v, ";")
	v = strings.ToLower(strings.TrimSpace(v))
	rest, ok := strings.CutPrefix(v, "application/")
	if !ok {
		return contentType{}, false
	}
	for _, fam := range []string{familyWebText, familyWeb, familyGRPC} { // longest first
		if s, ok := strings.CutPrefix(rest, fam); ok && (s == "" || (s[0] == '+' && len(s) > 1)) {
			return contentType{fam, s}, true
		}
	}
	return contentType{}, false
}

// notForwarded are header fields a converter owns or that belong to one hop only. Everything
// else is gRPC metadata and travels unchanged, duplicates and -bin values included.
var notForwarded = map[string]bool{
	// hop-by-hop (RFC 9110 7.6.1) and framing
	"connection": true, "keep-alive": true, "proxy-connection": true, "transfer-encoding": true,
	"te": true, "upgrade": true, "trailer": true, "host": true, "content-length": true,
	// set per hop by the converter
	"content-type": true, "accept": true, "accept-encoding": true, "x-grpc-web": true, "date": true,
	"grpc-timeout": true, markerHeader: true,
}

// statusFields make up a gRPC status, in the order they are sent.
var statusFields = []string{"grpc-status", "grpc-message", "grpc-status-details-bin"}

// isStatusField is true for the fields that make up a gRPC status.
func isStatusField(name string) bool { return slices.Contains(statusFields, name) }

// forwardable lists src's metadata with lowercase names, skipping hop fields, fields named by
// src's Connection header, and fields for which skip is true (skip may be nil).
func forwardable(src http.Header, skip func(name string) bool) grpcweb.Metadata {
	hop := map[string]bool{}
	for _, v := range src.Values("Connection") {
		for _, name := range strings.Split(v, ",") {
			hop[strings.ToLower(strings.TrimSpace(name))] = true
		}
	}
	var md grpcweb.Metadata
	for _, f := range grpcweb.MetadataFromHeader(src) {
		if !notForwarded[f.Name] && !hop[f.Name] && (skip == nil || !skip(f.Name)) {
			md = append(md, f)
		}
	}
	return md
}

// markerHeader marks a request converted by wirelab; its values name the modes that converted
// it, in order.
const markerHeader = "x-wirelab-converted"

// convertedBy reports whether mode is among the request's converter marks.
func convertedBy(h http.Header, mode string) bool {
	for _, v := range markerValues(h) {
		for _, m := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(m), mode) {
				return true
			}
		}
	}
	return false
}

// markerValues returns the marker's values whatever the case of its name.
func markerValues(h http.Header) []string {
	var vs []string
	for k, v := range h {
		if textproto.CanonicalMIMEHeaderKey(k) == "X-Wirelab-Converted" {
			vs = append(vs, v...)
		}
	}
	return vs
}
