package main

import (
	"net/http"
	"testing"

	"github.com/wirelab/wirelab/internal/grpcweb"
)

func TestParseContentType(t *testing.T) {
	good := map[string]contentType{
		"application/grpc":                         {familyGRPC, ""},
		"application/grpc+proto":                   {familyGRPC, "+proto"},
		"Application/GRPC-Web+json; charset=utf-8": {familyWeb, "+json"},
		"application/grpc-web":                     {familyWeb, ""},
		"application/grpc-web-text":                {familyWebText, ""},
		" application/grpc-web-text+proto ":        {familyWebText, "+proto"},
	}
	for v, want := range good {
		if got, ok := parseContentType(v); !ok || got != want {
			t.Errorf("parseContentType(%q) = %+v, %v; want %+v", v, got, ok, want)
		}
	}
	for _, v := range []string{"", "text/html", "application/grpcx", "application/grpc+", "application/grpc-webby", "application/json"} {
		if got, ok := parseContentType(v); ok {
			t.Errorf("parseContentType(%q) = %+v, accepted", v, got)
		}
	}
	if got := (contentType{familyWeb, "+proto"}).with(familyGRPC).String(); got != "application/grpc+proto" {
		t.Errorf("with: %s", got)
	}
}

func TestForwardableDropsHopFields(t *testing.T) {
	h := http.Header{
		"Connection": {"keep-alive, X-Hop"}, "X-Hop": {"1"}, "Te": {"trailers"}, "Content-Length": {"9"},
		"Transfer-Encoding": {"chunked"}, "Content-Type": {"application/grpc"}, "Grpc-Timeout": {"1S"},
		"X-Wirelab-Converted": {"edge"}, "X-Keep": {"a", "b"}, "X-Bin-Bin": {"AAE"}, "Grpc-Status": {"0"},
	}
	md := forwardable(h, isStatusField)
	if len(md) != 3 || md[0] != (grpcweb.Field{Name: "x-bin-bin", Value: "AAE"}) ||
		md[1] != (grpcweb.Field{Name: "x-keep", Value: "a"}) || md[2] != (grpcweb.Field{Name: "x-keep", Value: "b"}) {
		t.Fatalf("forwardable = %q", md)
	}
}
