// Command grpcweb-converter is wirelab's own gRPC <-> gRPC-web converter, a conformance-lab
// component built on internal/grpcweb. One binary, two modes:
//
//	grpcweb-converter --mode edge   --h2c --upstream http://origin:8080      # gRPC/h2 in, gRPC-web/1.1 out
//	grpcweb-converter --mode edge   --cert c.pem --key k.pem --upstream https://origin:8443 --upstream-ca ca.pem
//	grpcweb-converter --mode origin --upstream http://server:10000           # gRPC-web/1.1 in, gRPC/h2c out
//
// Chained (grpc client -> edge -> origin -> grpc server) every gRPC interop case, ping_pong
// included, crosses an HTTP/1.1 hop.
//
// # Conversion rules (both modes)
//
//   - Metadata travels unchanged: any name case in, lowercase names out, duplicates and -bin
//     values kept. Hop fields, content-length, content-type and accept are per hop: the transport
//     recomputes the length of the re-framed body (a stale one is the envoy#40097 bug).
//   - The h2 side always carries te: trailers.
//   - grpc-timeout becomes the deadline of the upstream call and is forwarded as the time left.
//     A client reset or cancel cancels the upstream call (HTTP/2 RST_STREAM, HTTP/1.1 close).
//   - Messages are read one at a time, at most --max-message-bytes each (more: RESOURCE_EXHAUSTED
//     on that stream), and flushed as soon as they are written: no buffering until 4 KB.
//   - Malformed frames, lying lengths, bad base64 and bad trailer blocks end that stream with
//     INTERNAL; other streams go on. Answers that are not gRPC(-web) (an HTML 503, a 404) map to
//     a status per grpc/grpc doc/http-grpc-status-mapping.md; an unreachable upstream is
//     UNAVAILABLE. grpc-message names what happened.
//   - Trailers-only stays trailers-only: a status in the upstream's response headers with an
//     empty body becomes a single HEADERS frame with END_STREAM (edge) or status headers with an
//     empty body (origin). No converter output ever carries an empty trailer frame.
//   - Each converted request is marked "x-wirelab-converted: <mode>" (values accumulate along a
//     chain). A request already marked by the same mode has looped back; it is rejected with
//     INTERNAL rather than passed through, because passing it on would loop again and a gRPC-web
//     request cannot be forwarded unconverted to a gRPC upstream anyway.
//
// # Full duplex over the HTTP/1.1 hop
//
// PROTOCOL-WEB.md leaves full duplex over HTTP/1.1 undefined: a gRPC-web request is one HTTP/1.1
// request, and nothing says whether its body may still be flowing while the response is read.
// Browsers cannot do it; public converters refuse bidi on HTTP/1 (vanguard-go: 505 "bidi streams
// require HTTP/2"). HTTP/1.1 itself does not forbid it (RFC 9112 lets a server answer before the
// request body is complete), so wirelab defines it between its own two modes:
//
//   - Edge (client side of the hop): the request body is an io.Pipe fed by a pump goroutine that
//     reads one gRPC message from the HTTP/2 client and writes it as one frame. With no
//     content-length, net/http's Transport sends the body chunked, from its own write goroutine,
//     flushing after every chunk, and returns the response as soon as its headers arrive, while
//     the body is still being written. The handler relays the response concurrently with the
//     pump. (duplex_test.go checks this behaviour of the Transport.)
//   - Origin (server side of the hop): the handler calls http.ResponseController.EnableFullDuplex
//     (Go >= 1.21) so that net/http lets it keep reading request chunks after it has started
//     writing the response; without it the server closes the request body at the first response
//     write. The same pump design feeds the HTTP/2 upstream request.
//
// Limits: this needs both ends to stream (a buffering HTTP/1.1 proxy in between breaks it), and
// the HTTP/1.1 connection cannot be reused when the call ends before the request body does (an
// error, or a server that answers early). The origin waits for a body end that may be on its
// way, reading and discarding what the upstream no longer takes: usually the client finishes
// sending and the connection stays. A trailers-only answer waits a moment before its status
// (bodyEndGrace, 200 ms), so that a drop can still be announced with Connection: close; an
// answer whose headers are out sends its status first and then waits longer (bodyEndWait, 10 s),
// as a drop could only show as a close after a complete-looking response, which the client's
// next POST on the connection would hit. If the body has not ended by then the converter
// unblocks its pending body read with a past read deadline (a body is never read after its
// handler returned), ends the chunked response itself and closes the connection (dropconn.go;
// net/http would otherwise panic, golang/go#68560, or parse the leftover body as the next
// request). A connection whose read was interrupted is dropped even if the body ended just then:
// net/http takes the failed background read it starts at a body's end for the client going away
// and cancels the context of every later request on the connection.
//
// HTTP/2 on both sides is net/http's own (http.Server.Protocols, http.Transport.Protocols for h2c
// prior knowledge): golang.org/x/net/http2's Server and h2c package are deprecated in favour of it.
//
// # Test-only misbehaviour
//
// --misbehave empty-trailer-frame, stale-content-length, cut-body-as-end, drop-grpc-timeout and
// canonical-error-trailers reproduce known converter bugs on purpose (see misbehave.go) so the
// conformance suite can prove it detects them. The default is none.
package main
