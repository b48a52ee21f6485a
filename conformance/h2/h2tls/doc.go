// Package h2tls is the client side of TLS shared by the lab's HTTP/2 tools (package h2, probe,
// h2check, h2probe, h2upload): one place that turns -servername, -ca and -insecure into a
// tls.Config, and one dial that sets ALPN, the key log and the server name, so the tools cannot
// drift apart in whom they trust or what they offer.
package h2tls
